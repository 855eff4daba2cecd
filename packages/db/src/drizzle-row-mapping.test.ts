import { asc, Column, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { openTestDatabase, testEngines } from "../test/testing/test-databases";
import { banks } from "./schema/banks";

/*
 * drizzle-orm's row mapping (patches/drizzle-orm@0.45.4.patch, docs/decisions/0063): unpatched,
 * `mapResultRow` works out how to read each selected field — is it a column? which table? which
 * decoder? — again for every column of every row. Patched, it does so once per field list. The
 * work is counted here, never timed: drizzle's "is this field a column?" check is an
 * `instanceof Column`, which this file counts while a select reads 1 row, then 40.
 */
async function columnChecksDuring(work: () => Promise<unknown>): Promise<number> {
  let checks = 0;
  Object.defineProperty(Column, Symbol.hasInstance, {
    configurable: true,
    value(this: unknown, value: unknown) {
      if (this === Column) checks += 1;
      return Function.prototype[Symbol.hasInstance].call(this, value);
    },
  });
  try {
    await work();
  } finally {
    delete (Column as { [Symbol.hasInstance]?: unknown })[Symbol.hasInstance];
  }
  return checks;
}

const ROWS = 40;
const otherBanks = alias(banks, "other_banks");

describe.each(testEngines())("drizzle's row mapping, patched (%s)", (engine) => {
  it("works out how to read a select's fields once, not again for every row", async () => {
    const database = await openTestDatabase(engine);
    try {
      const { db } = database;
      // A plain select, and one with a left join that finds nothing (its side must come back null).
      const plain = () => db.select().from(banks).orderBy(asc(banks.name));
      const joined = () => db.select().from(banks).leftJoin(otherBanks, sql`false`).orderBy(asc(banks.name));
      const bank = (i: number) => ({ name: `Bank ${String(i).padStart(2, "0")}`, defaultCurrency: "USD" });

      // Given one bank, the checks a select of it costs
      await db.insert(banks).values(bank(0));
      const forOneRow = [await columnChecksDuring(plain), await columnChecksDuring(joined)];
      expect(Math.min(...forOneRow)).toBeGreaterThan(0); // the checks are counted at all

      // When the same selects read 40 banks
      await db.insert(banks).values(Array.from({ length: ROWS - 1 }, (_, i) => bank(i + 1)));
      let plainRows: Awaited<ReturnType<typeof plain>> = [];
      let joinedRows: Awaited<ReturnType<typeof joined>> = [];
      const forAllRows = [
        await columnChecksDuring(async () => {
          plainRows = await plain();
        }),
        await columnChecksDuring(async () => {
          joinedRows = await joined();
        }),
      ];

      // Then they cost the same checks (unpatched: two more per column for every further row, as
      // many again with the join: [505, 1025] for [37, 89]), and the rows are read as before
      expect(forAllRows).toEqual(forOneRow);
      expect(plainRows).toHaveLength(ROWS);
      expect(plainRows[ROWS - 1]).toMatchObject({
        name: "Bank 39",
        defaultCurrency: "USD",
        routingNumber: null,
      });
      expect(plainRows[0]?.createdAt).toBeInstanceOf(Date);
      expect(joinedRows).toHaveLength(ROWS);
      expect(joinedRows[0]).toEqual({ banks: plainRows[0], other_banks: null });
    } finally {
      await database.close();
    }
  });
});
