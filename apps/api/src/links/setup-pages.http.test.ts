import { bankRoutes } from "@allot/contract/banks/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { SETUP_FORM, STRONG, useFirstRun } from "../../test/testing/first-run";
import { useTestApp } from "../../test/testing/test-app";

describe.each(testEngines())("link pages: first run (%s)", (engine) => {
  const t = useTestApp(engine);
  const firstRun = useFirstRun(t);

  it("shows the form on GET without using the link, then creates the first user, staff, and a bank", async () => {
    const { path } = await firstRun.start();
    for (let i = 0; i < 2; i += 1) {
      const page = await t.inject({ url: path });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<form class="stacked" method="post" action="${path}">`);
      for (const name of Object.keys(SETUP_FORM)) expect(page.body).toContain(`name="${name}"`);
      // The defaults a newcomer can keep: the project's time zone, dollars.
      expect(page.body).toMatch(/id="timezone" name="timezone"[^>]* value="America\/Los_Angeles"/);
      expect(page.body).toMatch(/id="bank_currency" name="bank_currency"[^>]* value="USD"/);
      expect(page.body).toContain('<option value="Europe/Berlin">');
    }

    const done = await firstRun.submit(path);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain("<title>Allot is set up · Allot</title>");
    expect(done.body).toContain("The bank <strong>First Bank</strong> (EUR)");
    // How to sign in, with this server's address and the new user's email.
    expect(done.body).toContain(
      "allot login --url &#39;http://allot.test&#39; --email &#39;first@example.com&#39;",
    );
    expect(done.body).toContain("curl -s -X POST &#39;http://allot.test/api/token/&#39;");
    expect(done.body).not.toContain(STRONG);

    const bearer = await t.login(SETUP_FORM.email, STRONG);
    const me = (await t.as(bearer).call(userRoutes.getMe, {})).json();
    expect(me).toMatchObject({
      username: "first@example.com",
      email: "first@example.com",
      name: "First Person",
      timezone: "Europe/Berlin",
      has_usable_password: true,
    });
    // Staff: the staff-only user list answers.
    expect((await t.as(bearer).call(userRoutes.list, {})).statusCode).toBe(200);
    const listed = (await t.as(bearer).call(bankRoutes.list, {})).json();
    expect(listed.results.map((bank) => [bank.name, bank.default_currency])).toEqual([["First Bank", "EUR"]]);
  });

  it("creates no bank when its name is left empty, and takes the default zone when none is given", async () => {
    const { path } = await firstRun.start();
    const done = await firstRun.submit(path, {
      ...SETUP_FORM,
      email: "  Solo.Person@Example.com ",
      name: "",
      timezone: " ",
      bank_name: " ",
      bank_currency: "USD",
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).not.toContain("The bank");
    const { users, banks } = await firstRun.rows();
    expect(banks).toEqual([]);
    expect(users).toEqual([
      expect.objectContaining({
        username: "solo.person@example.com",
        email: "Solo.Person@Example.com",
        name: "",
        timezone: "America/Los_Angeles",
        isStaff: true,
        isActive: true,
      }),
    ]);
  });

  it("normalises the time zone and the currency as the admin commands do", async () => {
    const { path } = await firstRun.start();
    const done = await firstRun.submit(path, {
      ...SETUP_FORM,
      timezone: "europe/berlin",
      bank_currency: " chf ",
    });
    expect(done.statusCode, done.body).toBe(200);
    const { users, banks } = await firstRun.rows();
    expect(users.map((user) => user.timezone)).toEqual(["Europe/Berlin"]);
    expect(banks.map((bank) => bank.defaultCurrency)).toEqual(["CHF"]);
  });
});
