import { describe, expect, it } from "vitest";
import { type PlannedScrapeRow, planScrapeSync, type StoredScrapeRow } from "./plan-scrape-sync";

const row = (index: number, fields: Partial<PlannedScrapeRow> = {}): PlannedScrapeRow => ({
  index,
  pending: false,
  amount: "-1.00",
  rawDescription: `ROW ${index}`,
  transactionDay: "2026-11-20",
  postedDay: "2026-11-20",
  ...fields,
});
const stored = (id: string, fields: Partial<StoredScrapeRow> = {}): StoredScrapeRow => ({
  id,
  hasDetails: false,
  transactionDate: "2026-11-20",
  amount: "-1.00",
  rawDescription: "ROW 0",
  ...fields,
});
const ids = () => {
  let n = 0;
  return () => `new-${++n}`;
};

describe("planScrapeSync", () => {
  it("inserts oldest first, pending rows always, and skips posted rows already stored", () => {
    const plan = planScrapeSync(
      [row(0, { pending: true }), row(1), row(2, { rawDescription: "ROW 0", transactionDay: "2026-11-19" })],
      [stored("s1")],
      ids(),
    );
    expect(plan.inserts.map(({ id, row }) => [id, row.index])).toEqual([
      ["new-1", 1],
      ["new-2", 0],
    ]);
    expect([...plan.skipped]).toEqual([[2, { id: "s1", hasDetails: false }]]);
  });

  it("consumes a stored row: two identical purchases need two stored rows to be skipped", () => {
    const plan = planScrapeSync(
      [row(0, { rawDescription: "ROW 0" }), row(1, { rawDescription: "ROW 0" })],
      [stored("s1")],
      ids(),
    );
    expect(plan.skipped.size).toBe(1);
    expect(plan.inserts).toHaveLength(1);
  });

  it("keeps two identical rows of one payload, but skips a truncated form of a row it inserts", () => {
    const twins = planScrapeSync(
      [row(0, { rawDescription: "SAME" }), row(1, { rawDescription: "SAME" })],
      [],
      ids(),
    );
    expect(twins.inserts).toHaveLength(2);
    const truncated = planScrapeSync(
      [row(0, { rawDescription: "HARDWARE STO..." }), row(1, { rawDescription: "HARDWARE STORE #12" })],
      [],
      ids(),
    );
    expect(truncated.inserts.map(({ row }) => row.index)).toEqual([1]);
    expect([...truncated.skipped]).toEqual([[0, { id: "new-1", hasDetails: false }]]);
  });

  it("gives the latest posted day, ignoring pending rows", () => {
    const plan = planScrapeSync(
      [
        row(0, { pending: true, postedDay: "2026-11-25" }),
        row(1, { postedDay: "2026-11-21" }),
        row(2, { postedDay: "2026-11-22" }),
      ],
      [],
      ids(),
    );
    expect(plan.lastPostedDay).toBe("2026-11-22");
    expect(planScrapeSync([row(0, { pending: true })], [], ids()).lastPostedDay).toBeNull();
  });
});
