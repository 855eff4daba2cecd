import { describe, expect, it } from "vitest";
import { passwordWeakness, personalWords } from "./password-strength";

const user = {
  email: "marguerite.oakley@example.com",
  username: "marguerite.oakley@example.com",
  name: "Marguerite Oakley",
};

describe("passwordWeakness", () => {
  it.each([
    ["password", "common password"],
    ["12345678", "digits in sequence"],
    ["qwertyuiop", "keyboard walk"],
    ["aaaaaaaaaaaa", "repeats"],
    ["Password1!", "common word with decorations"],
  ])("refuses %s (%s) with a reason", (password) => {
    const message = passwordWeakness(password, []);
    expect(message).toMatch(/^This password is too easy to guess\. \S/);
  });

  it("counts the user's own email and name against the password", () => {
    const password = "margueriteoakley";
    expect(passwordWeakness(password, [])).toBeNull();
    expect(passwordWeakness(password, personalWords(user))).toMatch(/too easy to guess/);
  });

  it.each(["correct horse battery staple", "vT7#qL9!mZ2p", "plum sofa quietly 1987 river"])(
    "accepts %s",
    (password) => {
      expect(passwordWeakness(password, personalWords(user))).toBeNull();
    },
  );

  it.each([
    ["x".repeat(4096), "very long"],
    ["1".repeat(300), "long repeat"],
    ["4@8({[</369&#!1/|0$5+7%2/".repeat(4), "l33t characters"],
    [`.,?!'-/_:;+()@$"#&*<>=[]\\~%^{}|1234567890`, "symbols and digits"],
  ])("stays quick on a crafted password (%#: %s)", (password) => {
    passwordWeakness("warm-up", []);
    const started = performance.now();
    passwordWeakness(password, personalWords(user));
    // Measured ~300 ms at worst here; the defaults took seconds.
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("still sees through common l33t spellings", () => {
    expect(passwordWeakness("p@ssw0rd", [])).toMatch(/too easy to guess/);
  });
});

describe("personalWords", () => {
  it("lists the whole values and their longer parts, lower-cased", () => {
    expect(personalWords(user)).toEqual([
      "marguerite.oakley@example.com",
      "marguerite",
      "oakley",
      "example",
      "com",
      "marguerite oakley",
    ]);
  });
});
