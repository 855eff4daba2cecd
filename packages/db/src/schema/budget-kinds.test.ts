import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { BUDGET_TYPES, FUNDING_TYPES } from "@allot/contract/budgets/budget-kinds";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testEngines } from "../../test/testing/test-databases";
import type { DatabaseHandle } from "../create-database";
import { sqlState } from "../database-errors";
import { bankAccounts } from "./bank-accounts";
import { banks } from "./banks";

const MIGRATIONS = new URL("../../drizzle/", import.meta.url);

/** The statements of the migration that added the kinds' CHECK constraints, as drizzle runs them. */
async function kindsMigration(): Promise<string[]> {
  const name = (await readdir(fileURLToPath(MIGRATIONS))).find((file) => file.endsWith("_budget_kinds.sql"));
  if (!name) throw new Error("no *_budget_kinds.sql migration");
  const text = await readFile(new URL(name, MIGRATIONS), "utf8");
  return text
    .split("--> statement-breakpoint")
    .map((statement) => statement.trim())
    .filter(Boolean);
}

describe.each(testEngines())("budget kinds in the database (%s)", (engine) => {
  let handle: DatabaseHandle;
  let accountId: string;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
    const [bank] = await handle.db
      .insert(banks)
      .values({ name: "Bank", defaultCurrency: "USD" })
      .returning({ id: banks.id });
    const [account] = await handle.db
      .insert(bankAccounts)
      .values({ name: "Checking", bankId: bank?.id as string, currency: "USD" })
      .returning({ id: bankAccounts.id });
    accountId = account?.id as string;
  });
  afterEach(() => handle.close());

  const insertBudget = (budgetType: string, fundingType: string) =>
    handle.db.execute(sql`insert into budgets (bank_account_id, name, budget_type, funding_type)
      values (${accountId}, ${`${budgetType}${fundingType}`}, ${budgetType}, ${fundingType})`);

  it("migrates a table holding every kind the contract names", async () => {
    await handle.db.execute(
      sql.raw(
        'ALTER TABLE "budgets" DROP CONSTRAINT "budgets_budget_type", DROP CONSTRAINT "budgets_funding_type"',
      ),
    );
    for (const budgetType of BUDGET_TYPES)
      for (const fundingType of FUNDING_TYPES) await insertBudget(budgetType, fundingType);

    for (const statement of await kindsMigration()) await handle.db.execute(sql.raw(statement));

    const error = await insertBudget("X", "F").then(
      () => null,
      (e: unknown) => e,
    );
    expect(sqlState(error)).toBe("23514");
  });
});
