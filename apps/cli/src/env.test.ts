import { describe, expect, it } from "vitest";
import { readEnv } from "./env";
import { UsageError } from "./output";

describe("readEnv: the server's address", () => {
  it("is ALLOT_URL, or ALLOT_BASE_URL (its old name) alone, or the same in both", () => {
    expect(readEnv({ ALLOT_URL: "https://a.example.com" }, "/tmp").baseUrl).toBe("https://a.example.com");
    expect(readEnv({ ALLOT_BASE_URL: "https://b.example.com" }, "/tmp").baseUrl).toBe(
      "https://b.example.com",
    );
    const both = { ALLOT_URL: "https://a.example.com", ALLOT_BASE_URL: "https://a.example.com" };
    expect(readEnv(both, "/tmp").baseUrl).toBe("https://a.example.com");
    expect(readEnv({}, "/tmp").baseUrl).toBeUndefined();
  });

  it("refuses two different servers, naming the variable to keep", () => {
    const read = () =>
      readEnv({ ALLOT_URL: "https://a.example.com", ALLOT_BASE_URL: "https://b.example.com" }, "/tmp");
    expect(read).toThrow(UsageError);
    expect(read).toThrow(
      "ALLOT_URL and ALLOT_BASE_URL (its old name) name different servers: set only ALLOT_URL.",
    );
  });
});
