import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openTestDatabase, testEngines } from "../test/testing/test-databases";
import { CONFLICT_ATTEMPTS } from "./retry-conflicts";

const conflict = (code: string) => Object.assign(new Error("could not serialize access"), { code });

describe.each(testEngines())("db.transaction and write conflicts (%s)", (engine) => {
  it("runs the transaction again after a serialisation failure or deadlock, then returns its result", async () => {
    const database = await openTestDatabase(engine);
    try {
      for (const code of ["40001", "40P01"]) {
        let attempts = 0;
        const result = await database.db.transaction(async (tx) => {
          attempts += 1;
          await tx.execute(sql`create temporary table attempt_marker (n int) on commit drop`);
          if (attempts < 3) throw conflict(code);
          return "done";
        });
        expect({ code, result, attempts }).toEqual({ code, result: "done", attempts: 3 });
      }
    } finally {
      await database.close();
    }
  });

  it("gives up after its attempts, and never repeats other errors", async () => {
    const database = await openTestDatabase(engine);
    try {
      let attempts = 0;
      await expect(
        database.db.transaction(async () => {
          attempts += 1;
          throw conflict("40P01");
        }),
      ).rejects.toMatchObject({ code: "40P01" });
      expect(attempts).toBe(CONFLICT_ATTEMPTS);

      attempts = 0;
      await expect(
        database.db.transaction(async () => {
          attempts += 1;
          throw conflict("23505");
        }),
      ).rejects.toMatchObject({ code: "23505" });
      expect(attempts).toBe(1);
    } finally {
      await database.close();
    }
  });
});
