import { planScrapeSync, type StoredScrapeRow } from "@allot/domain/import/plan-scrape-sync";
import { transactionDateOf } from "@allot/domain/import/scrape-transaction-date";
import { describe, expect, it } from "vitest";
import { type Chunk, chunkRows } from "./chunk-rows";
import type { StatementRow } from "./statement";

const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10);

/** Newest-first rows from oldest-first specs [day offset, amount, description]. */
const rows = (...specs: [number, string, string][]): StatementRow[] =>
  specs
    .map(([d, amount, raw_description], i) => ({
      line: i + 1,
      is_pending: false,
      posted_date: day(d),
      amount,
      raw_description,
    }))
    .reverse();

const daily = (count: number, perDay = 1) =>
  rows(
    ...Array.from({ length: count * perDay }, (_, i): [number, string, string] => [
      Math.floor(i / perDay),
      "-4.50",
      "COFFEE",
    ]),
  );

const own = (chunk: Chunk) => chunk.rows.slice(0, chunk.rows.length - chunk.overlap);
const lines = (list: StatementRow[]) => list.map((r) => r.line);

/**
 * Sends the chunks through the server's own planner against an in-memory store, as the server
 * does one sync after another; answers how many rows each sync inserted.
 */
function simulate(chunks: Chunk[], stored: StoredScrapeRow[] = []): number[] {
  let id = 0;
  return chunks.map((chunk) => {
    const planned = chunk.rows.map((row, index) => ({
      index,
      pending: row.is_pending,
      amount: row.amount,
      rawDescription: row.raw_description,
      postedDay: row.posted_date.slice(0, 10),
      transactionDay: transactionDateOf(row.raw_description, row.posted_date.slice(0, 10)),
    }));
    const plan = planScrapeSync(planned, stored, () => String(++id));
    for (const { id: newId, row } of plan.inserts)
      stored.push({
        id: newId,
        hasDetails: false,
        transactionDate: row.transactionDay,
        amount: row.amount,
        rawDescription: row.rawDescription,
      });
    return plan.inserts.length;
  });
}

describe("chunkRows", () => {
  it("sends a small file in one sync, as it is", () => {
    const list = daily(5);
    expect(chunkRows(list, { rows: 10, bytes: 1e6 })).toEqual([{ rows: list, overlap: 0 }]);
  });

  it.each([
    ["one row a day", daily(30), { rows: 10, bytes: 1e6 }],
    ["five identical rows a day", daily(40, 5), { rows: 40, bytes: 1e6 }],
    ["a row too large for two in a sync", daily(6), { rows: 100, bytes: 250 }],
    [
      "descriptions with MM/DD dates days before their posted date",
      rows(
        ...Array.from({ length: 60 }, (_, i): [number, string, string] => [
          i,
          "-9.99",
          `SUBWAY ${day(i - (i % 5))
            .slice(5)
            .replace("-", "/")}`,
        ]),
      ),
      { rows: 12, bytes: 1e6 },
    ],
  ])(
    "%s: each row sent once as new, oldest sync first; the server inserts every row, and nothing the second time",
    (_name, list, limits) => {
      const chunks = chunkRows(list, limits);
      expect(chunks.length).toBeGreaterThan(1);
      for (const chunk of chunks) {
        expect(chunk.rows.length).toBeLessThanOrEqual(limits.rows);
        expect(Buffer.byteLength(chunk.rows.map((r) => JSON.stringify(r)).join(","))).toBeLessThanOrEqual(
          limits.bytes,
        );
      }
      expect([...chunks].reverse().flatMap((c) => lines(own(c)))).toEqual(lines(list));
      expect(chunks[0]?.overlap).toBe(0);
      const inserted = simulate(chunks);
      expect(inserted.map((n, i) => n + (chunks[i]?.overlap ?? 0))).toEqual(chunks.map((c) => c.rows.length));
      expect(inserted.reduce((a, b) => a + b)).toBe(list.length);

      // The same file again: nothing new.
      const stored: StoredScrapeRow[] = [];
      simulate(chunks, stored);
      expect(simulate(chunks, stored)).toEqual(chunks.map(() => 0));
    },
  );

  it("re-sends the earlier rows from the day before a sync's oldest day", () => {
    const chunks = chunkRows(daily(30), { rows: 10, bytes: 1e6 });
    expect(chunks.map((c) => [own(c).length, c.overlap])).toEqual([
      [10, 0],
      [9, 1],
      [9, 1],
      [2, 1],
    ]);
    expect(lines(chunks[1]?.rows.slice(-1) ?? [])).toEqual([10]);
  });

  it("keeps the pending rows together in the last sync", () => {
    const list: StatementRow[] = [
      {
        line: 1,
        is_pending: true,
        posted_date: "2024-02-01T10:00:00Z",
        amount: "-1.00",
        raw_description: "P1",
      },
      {
        line: 2,
        is_pending: true,
        posted_date: "2024-02-01T09:00:00Z",
        amount: "-2.00",
        raw_description: "P2",
      },
      ...daily(10).map((r) => ({ ...r, line: r.line + 2 })),
    ];
    const chunks = chunkRows(list, { rows: 6, bytes: 1e6 });
    const last = chunks[chunks.length - 1] as Chunk;
    expect(lines(last.rows).slice(0, 2)).toEqual([1, 2]);
    expect(
      chunks
        .slice(0, -1)
        .flatMap((c) => c.rows)
        .some((r) => r.is_pending),
    ).toBe(false);
  });

  it("refuses when pending rows cannot share one sync, or a row alone is too large", () => {
    const pending = Array.from(
      { length: 5 },
      (_, i): StatementRow => ({
        line: i + 1,
        is_pending: true,
        posted_date: "2024-02-01",
        amount: "-1.00",
        raw_description: `P${i}`,
      }),
    );
    expect(() => chunkRows([...pending, ...daily(3)], { rows: 4, bytes: 1e6 })).toThrow(
      /line 5: the rows from here cannot be sent/,
    );
    expect(() => chunkRows(daily(3), { rows: 10, bytes: 20 })).toThrow(/cannot be sent within the limits/);
  });
});
