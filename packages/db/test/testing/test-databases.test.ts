import { describe, expect, it } from "vitest";
import { banks } from "../../src/schema/banks";
import { openTestDatabase, testEngines } from "./test-databases";

describe.each(testEngines())("test database on %s", (engine) => {
  it("is migrated and isolated per open", async () => {
    const first = await openTestDatabase(engine);
    const second = await openTestDatabase(engine);
    try {
      await first.db.insert(banks).values({ name: "First Bank", defaultCurrency: "USD" });
      expect(await first.db.select().from(banks)).toHaveLength(1);
      expect(await second.db.select().from(banks)).toHaveLength(0);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
