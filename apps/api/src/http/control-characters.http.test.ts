import { hasControlCharacters } from "@allot/contract/http/control-characters";
import { invitationRoutes } from "@allot/contract/invitations/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { apiKeys } from "@allot/db/schema/api-keys";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { budgets } from "@allot/db/schema/budgets";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { webhooks } from "@allot/db/schema/webhooks";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { ValidationFailed } from "@allot/domain/shared/errors";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { createUser } from "@allot/domain/users/create-user";
import { count, eq } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { beforeAll, describe, expect, it } from "vitest";
import { aBank, aBudget, anAccount, aTransaction } from "../../test/testing/fixtures";
import { multipartForm } from "../../test/testing/multipart-form";
import { type TestUser, useTestApp } from "../../test/testing/test-app";
import { useTestMailbox } from "../../test/testing/test-mailbox";

const REFUSED = ["Control characters (line breaks, tabs, escape codes) are not allowed in a name."];

/** What a hostile co-owner would put in a name: a header break, a terminal's title, clear and colours. */
const HOSTILE = {
  "a line break": "Rent\nX",
  "CR LF (a header break)": "Rent\r\nBcc: evil@example.com",
  "a tab": "Rent\tX",
  "a terminal title (OSC)": "\u001b]0;pwned\u0007Rent",
  "clear screen": "\u001b[2J\u001b[HRent",
  DEL: "Rent\u007f",
  "C1 NEL": "Rent\u0085",
  "C1 CSI": "Rent\u009b2J",
  "a trailing newline": "Rent\n",
};

type Encoding = "json" | "form" | "multipart";
const ENCODINGS: Encoding[] = ["json", "form", "multipart"];

describe.each(testEngines())("control characters in names over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  let user: TestUser;
  let ids: { bank: string; account: string; budget: string; category: string; webhook: string };

  beforeAll(async () => {
    user = await t.user({ name: "Ada" });
    const account = await anAccount(t, user, { name: "Checking" });
    const budget = await aBudget(t, user, account, { name: "Holiday" });
    const category = await send("POST", "/api/v1/transaction-categories/", {
      group: "Crafts",
      name: "Pottery",
    });
    expect(category.statusCode, category.body).toBe(201);
    const webhook = (
      await send("POST", "/api/v1/webhooks/", {
        url: "https://hooks.example.com/allot",
        event_types: ["*"],
        description: "Dashboard",
      })
    ).json().id;
    ids = {
      bank: (await aBank(t)).id,
      account: account.id,
      budget: budget.id,
      category: category.json().id,
      webhook,
    };
  });

  function send(method: string, url: string, fields: Record<string, unknown>, encoding: Encoding = "json") {
    const headers = { authorization: user.bearer };
    if (encoding === "json")
      return t.inject({ method: method as "POST", url, headers, payload: fields as object });
    const text = Object.entries(fields).flatMap(([key, value]) =>
      (Array.isArray(value) ? value : [value]).map((item) => [key, String(item)] as [string, string]),
    );
    if (encoding === "form")
      return t.inject({
        method: method as "POST",
        url,
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(text).toString(),
      });
    const form = multipartForm(Object.fromEntries(text));
    return t.inject({
      method: method as "POST",
      url,
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    });
  }

  /** Each writable name, on create and on update, with what stays true after a refusal. */
  const cases = (): [string, string, string, Record<string, unknown>, string, PgTable][] => [
    [
      "a bank account's name, on create",
      "POST",
      "/api/v1/bank-accounts/",
      { bank: ids.bank, available_balance: "1.00", posted_balance: "1.00" },
      "name",
      bankAccounts,
    ],
    [
      "a bank account's name, on update",
      "PATCH",
      `/api/v1/bank-accounts/${ids.account}/`,
      {},
      "name",
      bankAccounts,
    ],
    [
      "a budget's name, on create",
      "POST",
      "/api/v1/budgets/",
      {
        bank_account: ids.account,
        budget_type: "G",
        funding_type: "F",
        target_balance: "5",
        funding_amount: "1",
      },
      "name",
      budgets,
    ],
    ["a budget's name, on update", "PATCH", `/api/v1/budgets/${ids.budget}/`, {}, "name", budgets],
    [
      "a category's name, on create",
      "POST",
      "/api/v1/transaction-categories/",
      { group: "Home" },
      "name",
      transactionCategories,
    ],
    [
      "a category's group, on create",
      "POST",
      "/api/v1/transaction-categories/",
      { name: "Rent" },
      "group",
      transactionCategories,
    ],
    [
      "a category's name, on update",
      "PATCH",
      `/api/v1/transaction-categories/${ids.category}/`,
      {},
      "name",
      transactionCategories,
    ],
    [
      "a category's group, on update",
      "PATCH",
      `/api/v1/transaction-categories/${ids.category}/`,
      {},
      "group",
      transactionCategories,
    ],
    ["an API key's name", "POST", "/api/v1/users/me/api-keys/", {}, "name", apiKeys],
    ["the user's name", "PATCH", "/api/v1/users/me/", {}, "name", apiKeys],
    [
      "a webhook's description, on create",
      "POST",
      "/api/v1/webhooks/",
      { url: "https://hooks.example.com/other", event_types: ["*"] },
      "description",
      webhooks,
    ],
    [
      "a webhook's description, on update",
      "PATCH",
      `/api/v1/webhooks/${ids.webhook}/`,
      {},
      "description",
      webhooks,
    ],
  ];

  const rowCount = async (table: PgTable) => (await t.db.select({ n: count() }).from(table))[0]?.n;

  it("refuses every kind of control character in every name with a 400 on the field, JSON, form or multipart", async () => {
    for (const [what, method, url, fields, field, table] of cases()) {
      const before = await rowCount(table);
      for (const encoding of ENCODINGS) {
        for (const [kind, text] of Object.entries(HOSTILE)) {
          const response = await send(method, url, { ...fields, [field]: text }, encoding);
          const label = `${what}, ${encoding}, ${kind}`;
          expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
          expect(response.json(), label).toEqual({ [field]: REFUSED });
        }
      }
      expect(await rowCount(table), what).toBe(before);
    }
    // Nothing was renamed either.
    const read = async (url: string) => (await send("GET", url, {})).json();
    expect((await read(`/api/v1/bank-accounts/${ids.account}/`)).name).toBe("Checking");
    expect((await read(`/api/v1/budgets/${ids.budget}/`)).name).toBe("Holiday");
    expect(await read(`/api/v1/transaction-categories/${ids.category}/`)).toMatchObject({
      group: "Crafts",
      name: "Pottery",
    });
    expect((await read("/api/v1/users/me/")).name).toBe("Ada");
    expect((await read(`/api/v1/webhooks/${ids.webhook}/`)).description).toBe("Dashboard");
  });

  it("still takes names with spaces, punctuation, accents and emoji, and trims them", async () => {
    const response = await send("PATCH", `/api/v1/budgets/${ids.budget}/`, { name: "  Café — «Ferien» 🏖  " });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().name).toBe("Café — «Ferien» 🏖");
    const restored = await send("PATCH", `/api/v1/budgets/${ids.budget}/`, { name: "Holiday" });
    expect(restored.statusCode).toBe(200);
  });

  it("refuses them in the names the admin gives (a bank, a user), as the CLI and the first-run page do", async () => {
    const ctx = internalContext(t.db, "cli");
    const bank = await createBank(ctx, { name: "First\r\nNational", currency: "USD" }).catch(
      (e: unknown) => e,
    );
    expect(bank).toBeInstanceOf(ValidationFailed);
    expect((bank as ValidationFailed).fields).toEqual({ name: REFUSED });
    const newUser = await createUser(ctx, {
      email: "ctl@example.com",
      password: "correct horse battery staple",
      name: "\u001b]0;x\u0007Eve",
    }).catch((e: unknown) => e);
    expect(newUser).toBeInstanceOf(ValidationFailed);
    expect((newUser as ValidationFailed).fields).toEqual({ name: REFUSED });
  });

  it("keeps the texts that come from banks as sent: descriptions and memos may hold them", async () => {
    const raw = "POS 0042\tCAFE\u001b[0m\r\nAUSTIN";
    const created = await aTransaction(t, user, { id: ids.account }, { raw_description: raw, memo: "a\tb" });
    const read = (await t.as(user).call(transactionRoutes.get, { id: created.id })).json();
    expect(read).toMatchObject({ raw_description: raw, memo: "a\tb" });
  });

  it("sends no control character in an email, from a name stored before names refused them", async () => {
    const inviter = await t.user({ name: "Ada" });
    const account = await anAccount(t, inviter);
    const stored = "Joint\r\nBcc: evil@example.com\u001b[2J";
    await t.db.update(bankAccounts).set({ name: stored }).where(eq(bankAccounts.id, account.id));
    const invitee = `invitee-${Date.now()}@example.com`;
    const invited = await t
      .as(inviter)
      .call(invitationRoutes.invite, { id: account.id, invitee_email: invitee });
    expect(invited.statusCode, invited.body).toBe(201);
    const email = await mailbox.latestTo(invitee);
    expect(email.subject).toBe(
      `Ada (${inviter.email}) invited you to share "Joint  Bcc: evil@example.com [2J" on Allot`,
    );
    for (const body of [email.subject, email.text, email.html])
      expect(hasControlCharacters(body.replace(/\n/g, "")), body).toBe(false);
  });
});
