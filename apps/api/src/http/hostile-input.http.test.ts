import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { budgets } from "@allot/db/schema/budgets";
import { transactions } from "@allot/db/schema/transactions";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { verifyLedger } from "@allot/domain/ledger/verify-ledger";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type TestUser, useTestApp } from "../../test/testing/test-app";

const NUL_MESSAGE = ["Null characters are not allowed."];
const RANGE_MESSAGE = ["Must be a date between 0100-01-02 and 9999-12-29."];
const DATE_TIME_MESSAGE = ["Must be an ISO 8601 date-time or a date, YYYY-MM-DD."];

/** A multipart/form-data body built by hand: one text part per field. */
function multipartBody(fields: Record<string, string>) {
  const boundary = "----allot-hostile-boundary";
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    payload: `${parts.join("")}--${boundary}--\r\n`,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

/** Input an audit found answering 500: each must be a 400 on the right field, with nothing written. */
describe.each(testEngines())("hostile input over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);
  let bankId: string;
  let user: TestUser;
  let account: { id: string; unallocated: string };
  /** Accounts a test touched: each must still pass verifyLedger afterwards. */
  const touched = new Set<string>();

  const auth = () => ({ authorization: user.bearer });
  // The requests under test go out raw, as written: edge and hostile values, query strings and
  // paths no client builds. Setup and checks call the contract's routes.
  const post = (url: string, payload: Record<string, unknown>) =>
    t.inject({ method: "POST", url, headers: auth(), payload });
  const get = (url: string) => t.inject({ url, headers: auth() });
  const accountDetail = async (id: string) => (await t.as(user).call(bankAccountRoutes.get, { id })).json();

  async function newAccount(balance = "100.00") {
    const response = await t.as(user).call(bankAccountRoutes.create, {
      name: "Checking",
      bank: bankId,
      available_balance: balance,
      posted_balance: balance,
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    touched.add(body.id);
    return { id: body.id, unallocated: body.unallocated_budget as string };
  }

  async function goal(accountId: string, name = "Holiday") {
    const [row] = await t.db
      .insert(budgets)
      .values({ bankAccountId: accountId, name, budgetType: "G", fundingType: "F", targetBalance: "100" })
      .returning();
    if (!row) throw new Error("no budget");
    return row.id;
  }

  const transaction = (values: Record<string, unknown> = {}) => ({
    bank_account: account.id,
    amount: "-1.00",
    transaction_date: "2024-01-01",
    transaction_type: "ach",
    raw_description: "Coffee",
    ...values,
  });
  const transactionCount = async (accountId: string) =>
    (await t.db.select().from(transactions).where(eq(transactions.bankAccountId, accountId))).length;

  const expect400 = (response: { statusCode: number; body: string; json: () => unknown }, body: unknown) => {
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual(body);
  };

  beforeAll(async () => {
    bankId = (await createBank(internalContext(t.db, "cli"), { name: "Hostile Bank", currency: "USD" })).id;
    user = await t.user();
    account = await newAccount();
  });
  afterEach(async () => {
    for (const accountId of touched) expect(await verifyLedger(t.db, accountId)).toEqual([]);
    touched.clear();
    touched.add(account.id);
  });

  describe("dates", () => {
    it.each([
      ["year 0000", "0000-01-01", RANGE_MESSAGE],
      ["an offset rolling past the last day", "9999-12-29T23:59:59-14:00", RANGE_MESSAGE],
      ["an offset rolling before the first day", "0100-01-02T00:00:00+01:00", RANGE_MESSAGE],
      ["a year drizzle would read back as 1950", "0050-06-01", RANGE_MESSAGE],
      ["the day a local reading could carry past 9999", "9999-12-30", RANGE_MESSAGE],
      ["an impossible day", "2024-02-30", DATE_TIME_MESSAGE],
      ["hour 24", "2024-01-01T24:00:00Z", DATE_TIME_MESSAGE],
    ])("refuses %s in a body date-time, writing nothing", async (_label, text, message) => {
      const before = await transactionCount(account.id);
      const created = await post("/api/v1/transactions/", transaction({ transaction_date: text }));
      expect400(created, { transaction_date: message });
      const internal = await post("/api/v1/internal-transactions/", {
        bank_account: account.id,
        amount: "1.00",
        src_budget: account.unallocated,
        dst_budget: await goal(account.id),
        effective_date: text,
      });
      expect400(internal, { effective_date: message });
      expect(await transactionCount(account.id)).toBe(before);
    });

    it("keeps the first and last supported days, read back as sent or as the local day", async () => {
      const own = await newAccount();
      for (const [text, iso] of [
        ["0100-01-02T00:00:00Z", "0100-01-02T00:00:00.000Z"],
        ["9999-12-29T23:59:59Z", "9999-12-29T23:59:59.000Z"],
        // Bare dates are the account's (Los Angeles) days: local mean time in 100, PST in 9999.
        ["0100-01-02", "0100-01-02T07:52:58.000Z"],
        ["9999-12-29", "9999-12-29T08:00:00.000Z"],
      ]) {
        const response = await post(
          "/api/v1/transactions/",
          transaction({ bank_account: own.id, transaction_date: text }),
        );
        expect(response.statusCode, response.body).toBe(201);
        expect(response.json().transaction_date).toBe(iso);
      }
    });

    it("refuses a range filter past the supported days under the parameter's name", async () => {
      expect400(await get("/api/v1/transactions/?date_to=9999-12-30"), { date_to: RANGE_MESSAGE });
      expect400(await get("/api/v1/transactions/?posted_date_from=0100-01-01"), {
        posted_date_from: RANGE_MESSAGE,
      });
      expect400(await get("/api/v1/transactions/?date_from=2023-02-29"), { date_from: DATE_TIME_MESSAGE });
      expect400(await get("/api/v1/internal-transactions/?date_to=9999-12-30"), { date_to: RANGE_MESSAGE });
    });

    it("takes the last supported day as a whole-day end bound", async () => {
      for (const url of [
        "/api/v1/transactions/?date_from=0100-01-02&date_to=9999-12-29",
        "/api/v1/transactions/?posted_date_to=9999-12-29",
        "/api/v1/internal-transactions/?date_from=0100-01-02&date_to=9999-12-29",
      ]) {
        const response = await get(url);
        expect(response.statusCode, response.body).toBe(200);
      }
    });

    it("refuses calendar dates out of range", async () => {
      const budget = await post("/api/v1/budgets/", {
        name: "Someday",
        bank_account: account.id,
        budget_type: "G",
        funding_type: "D",
        target_balance: "500",
        target_date: "0000-01-01",
      });
      expect400(budget, { target_date: RANGE_MESSAGE });
      const imported = await post(`/api/v1/bank-accounts/${account.id}/mark-imported/`, {
        last_posted_through: "9999-12-31",
      });
      expect400(imported, { last_posted_through: RANGE_MESSAGE });
    });
  });

  describe("NUL characters", () => {
    it.each(["raw_description", "description", "memo"])("in a transaction's %s: 400 on it", async (field) => {
      const before = await transactionCount(account.id);
      expect400(await post("/api/v1/transactions/", transaction({ [field]: "Cof\u0000fee" })), {
        [field]: NUL_MESSAGE,
      });
      expect(await transactionCount(account.id)).toBe(before);
    });

    it("in budget fields, nested ones by their dotted path", async () => {
      const response = await post("/api/v1/budgets/", {
        name: "Trip\u0000",
        bank_account: account.id,
        budget_type: "G",
        funding_type: "F",
        target_balance: "500",
        funding_amount: "50",
        memo: "\u0000",
        auto_spend: ["Food & Drink : Groceries", "Travel\u0000"],
        ignored: { rows: [{}, { note: "a\u0000" }] },
      });
      expect400(response, {
        name: NUL_MESSAGE,
        memo: NUL_MESSAGE,
        "auto_spend.1": NUL_MESSAGE,
        "ignored.rows.1.note": NUL_MESSAGE,
      });
    });

    it("in an object key", async () => {
      const tx = await t.as(user).call(transactionRoutes.create, {
        bank_account: account.id,
        amount: "-1.00",
        transaction_date: "2024-01-01",
        transaction_type: "ach",
        raw_description: "Coffee",
      });
      expect(tx.statusCode, tx.body).toBe(201);
      const response = await post(`/api/v1/transactions/${tx.json().id}/splits/`, {
        splits: { "bad\u0000key": "0.50" },
      });
      expect400(response, { "splits.bad\u0000key": NUL_MESSAGE });
    });

    it("in form-encoded and multipart bodies", async () => {
      const form = await t.inject({
        method: "POST",
        url: "/api/v1/transactions/",
        headers: { ...auth(), "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(transaction({ memo: "a\u0000b" }) as Record<string, string>).toString(),
      });
      expect400(form, { memo: NUL_MESSAGE });
      const multipart = multipartBody(transaction({ raw_description: "a\u0000b" }) as Record<string, string>);
      const response = await t.inject({
        method: "POST",
        url: "/api/v1/transactions/",
        headers: { ...auth(), ...multipart.headers },
        payload: multipart.payload,
      });
      expect400(response, { raw_description: NUL_MESSAGE });
    });

    it("in query parameters: 400 under the parameter's name", async () => {
      expect400(await get("/api/v1/transaction-categories/?search=a%00b"), { search: NUL_MESSAGE });
      expect400(await get("/api/v1/transaction-categories/?group=%00"), { group: NUL_MESSAGE });
      expect400(await get("/api/v1/transactions/?category_group=x%00&merchant_name=%00y"), {
        category_group: NUL_MESSAGE,
        merchant_name: NUL_MESSAGE,
      });
      expect400(await get("/api/v1/budgets/?search=a&search=b%00"), { search: NUL_MESSAGE });
    });
  });

  describe("deep nesting", () => {
    it("answers 400, not a stack overflow, for a body nested thousands of levels", async () => {
      const payload = `{"last_posted_through":"2026-01-01","x":${"[".repeat(6000)}${"]".repeat(6000)}}`;
      const response = await t.inject({
        method: "POST",
        url: `/api/v1/bank-accounts/${account.id}/mark-imported/`,
        headers: { ...auth(), "content-type": "application/json" },
        payload,
      });
      expect400(response, { non_field_errors: ["The request nests deeper than 128 levels."] });
      expect((await accountDetail(account.id)).last_posted_through).toBeNull();
    });
  });

  describe("requests the fuzz suite found answered outside the error shapes", () => {
    it("a multipart content type without a boundary: 400, not a 500", async () => {
      for (const type of ["multipart/form-data", "multipart/form-data; boundary=", "Multipart/Form-Data;"]) {
        const response = await t.inject({
          method: "POST",
          url: "/api/v1/transaction-categories/",
          headers: { ...auth(), "content-type": type },
          payload: '{"group":"Fuzz","name":"Boundary"}',
        });
        expect(response.statusCode, `${type}: ${response.body}`).toBe(400);
        expect(response.json()).toEqual({
          detail: "Malformed multipart body: the content type names no boundary.",
          code: "parse_error",
        });
      }
    });

    it("a URL the router cannot decode: 400 in the error shape, not fastify's own body echoing it", async () => {
      for (const url of ["/api/v1/bank-accounts/%zz/", "/api/v1/budgets/%/", "/api/v1/bank-accounts/%s%n/"]) {
        const response = await get(url);
        expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
        expect(response.json()).toEqual({ detail: "Malformed URL.", code: "bad_url" });
      }
    });

    it("an id of controls or spaces in a path: 404, not the list the URL parser would strip it to", async () => {
      for (const id of ["%09%0A%0D", "%00", "%20", "%7F"]) {
        for (const url of [`/api/v1/transactions/${id}`, `/api/v1/internal-transactions/${id}/`]) {
          const response = await get(url);
          expect(response.statusCode, `${url}: ${response.body}`).toBe(404);
          expect(response.json()).toEqual({ detail: "Not found.", code: "not_found" });
        }
      }
    });

    it("a login email of a million characters: 400 on email, not a 500 from storing its throttle key", async () => {
      const response = await t.inject({
        method: "POST",
        url: "/api/token/",
        payload: { email: "A".repeat(1_000_000), password: "x" },
      });
      expect400(response, { email: ["Ensure this field has no more than 254 characters."] });
    });
  });

  describe("database range safety net", () => {
    it("an amount that would overflow numeric(14,2): 400, the account unchanged", async () => {
      const full = await newAccount("999999999999.00");
      const before = await accountDetail(full.id);
      const response = await post(
        "/api/v1/transactions/",
        transaction({ bank_account: full.id, amount: "999999999999.00" }),
      );
      expect400(response, { non_field_errors: ["The amount would take a balance past 12 integer digits."] });
      const after = await accountDetail(full.id);
      expect(after.available_balance).toBe(before.available_balance);
      expect(after.posted_balance).toBe(before.posted_balance);
      expect(await transactionCount(full.id)).toBe(0);
    });
  });

  describe("upper-case UUIDs", () => {
    it("name the same objects as lower-case ones in bodies, paths and filters", async () => {
      const holiday = await goal(account.id, "Upper Holiday");
      const response = await post("/api/v1/internal-transactions/", {
        bank_account: account.id.toUpperCase(),
        amount: "5.00",
        src_budget: account.unallocated.toUpperCase(),
        dst_budget: holiday.toUpperCase(),
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({
        bank_account: account.id,
        src_budget: account.unallocated,
        dst_budget: holiday,
      });

      const byPath = await get(`/api/v1/budgets/${holiday.toUpperCase()}/`);
      expect(byPath.statusCode, byPath.body).toBe(200);
      expect(byPath.json().id).toBe(holiday);
      const listed = await get(`/api/v1/internal-transactions/?budget=${holiday.toUpperCase()}`);
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json().count).toBe(1);
    });

    it("still 404 in a path when unknown or malformed", async () => {
      expect((await get("/api/v1/budgets/A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11/")).statusCode).toBe(404);
      expect((await get("/api/v1/budgets/NOT-A-UUID/")).statusCode).toBe(404);
    });
  });
});
