import { testEngines } from "@allot/db/testing/test-databases";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { createUser } from "@allot/domain/users/create-user";
import { describe, expect, it } from "vitest";
import { SETUP_FORM, STRONG, useFirstRun } from "../../test/testing/first-run";
import { useTestApp } from "../../test/testing/test-app";

/** The messages the re-rendered form shows beside each field, by field name. */
const fieldErrorsIn = (body: string) =>
  Object.fromEntries(
    [...body.matchAll(/<p class="error" id="(\w+)-error">([^<]*)<\/p>/g)].map((m) => [m[1], m[2]]),
  );

describe.each(testEngines())("link pages: first run, refusals (%s)", (engine) => {
  const t = useTestApp(engine);
  const firstRun = useFirstRun(t);

  it("re-renders the form with every problem beside its field, keeping what was typed but the passwords", async () => {
    const { path } = await firstRun.start();
    const bad = await firstRun.submit(path, {
      email: "not-an-email",
      name: "N".repeat(151),
      password: STRONG,
      confirm_password: `${STRONG}!`,
      timezone: "Mars/Olympus_Mons",
      bank_name: "Kept Bank",
      bank_currency: "XYZ",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(`<form class="stacked" method="post" action="${path}">`);
    expect(fieldErrorsIn(bad.body)).toEqual({
      email: "Enter a valid email address.",
      name: "Ensure this field has no more than 150 characters.",
      confirm_password: "The two password fields didn&#39;t match.",
      timezone: "&#39;Mars/Olympus_Mons&#39; is not a valid IANA time zone.",
      bank_currency: "&#39;XYZ&#39; is not an ISO 4217 currency code.",
    });
    expect(bad.body).toContain('aria-describedby="email-hint email-error"');
    expect(bad.body).toContain('value="not-an-email"');
    expect(bad.body).toContain('value="Kept Bank"');
    expect(bad.body).not.toContain(STRONG);
    expect(bad.body).not.toMatch(/type="password"[^>]*value=/);

    // The project's password rule: zxcvbn, the user's own email and name counted against it.
    const weak = await firstRun.submit(path, {
      ...SETUP_FORM,
      email: "margaret.hamilton@example.com",
      password: "margaret.hamilton@example.com",
      confirm_password: "margaret.hamilton@example.com",
    });
    expect(weak.statusCode).toBe(400);
    expect(fieldErrorsIn(weak.body).password).toMatch(/^This password is too easy to guess\./);

    const noBankCurrency = await firstRun.submit(path, { ...SETUP_FORM, bank_currency: "" });
    expect(noBankCurrency.statusCode).toBe(400);
    expect(fieldErrorsIn(noBankCurrency.body)).toEqual({
      bank_currency: "&#39;&#39; is not an ISO 4217 currency code.",
    });

    const longBank = await firstRun.submit(path, { ...SETUP_FORM, bank_name: "B".repeat(201) });
    expect(fieldErrorsIn(longBank.body)).toEqual({ bank_name: "Must be 1 to 200 characters." });

    // Nothing was created, and the link survived every refusal.
    expect(await firstRun.rows()).toEqual({ users: [], banks: [] });
    expect((await firstRun.submit(path)).statusCode).toBe(200);
  });

  it("answers an empty, partial or odd body with the form and its messages, never a 500", async () => {
    const { path } = await firstRun.start();
    const empty = await t.inject({ method: "POST", url: path });
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(fieldErrorsIn(empty.body)).sort()).toEqual(["email", "password"]);

    // A repeated field arrives as a list: read as empty, refused like a missing one.
    const repeated = await t.inject({
      method: "POST",
      url: path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `email=a%40example.com&email=b%40example.com&password=${encodeURIComponent(STRONG)}&confirm_password=${encodeURIComponent(STRONG)}`,
    });
    expect(repeated.statusCode).toBe(400);
    expect(fieldErrorsIn(repeated.body)).toEqual({ email: "Enter a valid email address." });

    const json = await t.inject({ method: "POST", url: path, payload: SETUP_FORM });
    expect(json.statusCode).toBe(200);
    expect(json.body).toContain("Allot is set up");
  });

  it("refuses what the body parser cannot read as a page, and keeps the link", async () => {
    const { path } = await firstRun.start();
    const nul = await t.inject({
      method: "POST",
      url: path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "email=a%00b%40example.com",
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.body).toContain("The request could not be read");
    const xml = await t.inject({
      method: "POST",
      url: path,
      headers: { "content-type": "application/xml" },
      payload: "<email/>",
    });
    expect(xml.statusCode).toBe(400);
    expect(xml.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect((await firstRun.submit(path)).statusCode).toBe(200);
  });

  it("answers a token no start issued with a 404 page, on GET and POST", async () => {
    await firstRun.start();
    for (const response of [
      await t.inject({ url: "/links/setup/nobody-issued-this" }),
      await firstRun.submit("/links/setup/nobody-issued-this"),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain("Link not found");
      expect(response.body).toContain("This first-run link is not valid.");
      expect(response.body).not.toContain("<form");
    }
    expect(await firstRun.rows()).toEqual({ users: [], banks: [] });
  });

  it("answers 410 once a user exists, however it was made, whatever was typed", async () => {
    const { path } = await firstRun.start();
    await createUser(internalContext(t.db, "cli"), { email: "admin@example.com", password: STRONG });
    for (const response of [
      await t.inject({ url: path }),
      await firstRun.submit(path),
      await firstRun.submit(path, { ...SETUP_FORM, email: "junk" }),
      await firstRun.submit("/links/setup/nobody-issued-this"),
    ]) {
      expect(response.statusCode).toBe(410);
      expect(response.body).toContain("<title>Allot is already set up · Allot</title>");
      expect(response.body).not.toContain("<form");
    }
    const { users, banks } = await firstRun.rows();
    expect(users.map((user) => user.email)).toEqual(["admin@example.com"]);
    expect(banks).toEqual([]);
  });
});
