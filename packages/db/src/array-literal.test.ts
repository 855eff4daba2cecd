import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, testEngines } from "../test/testing/test-databases";
import { arrayLiteral } from "./array-literal";
import type { DatabaseHandle } from "./create-database";

describe.each(testEngines())("arrayLiteral read back by the database (%s)", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(() => database.close());

  const roundTrip = async (values: string[]) => {
    const result = await database.db.execute(sql`select unnest(${arrayLiteral(values)}::text[]) as value`);
    const rows = Array.isArray(result) ? result : (result as { rows: { value: string }[] }).rows;
    return rows.map((row: { value: string }) => row.value);
  };

  it("gives back every value as it was, however it is spelled", async () => {
    const values = [
      "a,b",
      '{"x"}',
      "back\\slash",
      'say "hi"',
      "NULL",
      "",
      " padded ",
      "ünïcode",
      '\\\\"',
      "}{",
    ];
    expect(await roundTrip(values)).toEqual(values);
  });

  it("sends a null element as SQL NULL, and the text NULL as text", async () => {
    const result = await database.db.execute(
      sql`select v is null as missing from unnest(${arrayLiteral([null, "NULL"])}::text[]) as v`,
    );
    const rows = Array.isArray(result) ? result : (result as { rows: { missing: boolean }[] }).rows;
    expect(rows.map((row: { missing: boolean }) => row.missing)).toEqual([true, false]);
  });

  it("reads an empty list as an empty array", async () => {
    expect(await roundTrip([])).toEqual([]);
  });
});
