import { describe, expect, it } from "vitest";
import { createDuplicateFinder, type DuplicateKey } from "./scrape-duplicates";

interface Stored extends DuplicateKey {
  id: string;
}

const stored = (id: string, transactionDate: string, amount: string, rawDescription: string): Stored => ({
  id,
  transactionDate,
  amount,
  rawDescription,
});
const row = (transactionDate: string, amount: string, rawDescription: string): DuplicateKey => ({
  transactionDate,
  amount,
  rawDescription,
});

const FULL = "AMAZON MKTPLACE PMTS AMZN.COM/BILL WA";

describe("createDuplicateFinder: one incoming row against one stored row", () => {
  const base = stored("s1", "2024-03-10", "-12.50", FULL);
  it.each([
    ["exact match", row("2024-03-10", "-12.50", FULL), true],
    ["one day later", row("2024-03-11", "-12.50", FULL), true],
    ["one day earlier", row("2024-03-09", "-12.50", FULL), true],
    ["two days later", row("2024-03-12", "-12.50", FULL), false],
    ["two days earlier", row("2024-03-08", "-12.50", FULL), false],
    ["different amount", row("2024-03-10", "-12.51", FULL), false],
    ["amount equal as money", row("2024-03-10", "-12.5", FULL), true],
    ["sign matters", row("2024-03-10", "12.50", FULL), false],
    ["different description", row("2024-03-10", "-12.50", "AMAZON PRIME"), false],
    [
      "whitespace collapsed and trimmed",
      row("2024-03-10", "-12.50", `  AMAZON  MKTPLACE PMTS\tAMZN.COM/BILL WA `),
      true,
    ],
    ["case is significant", row("2024-03-10", "-12.50", FULL.toLowerCase()), false],
    ["truncated incoming matches full stored", row("2024-03-10", "-12.50", "AMAZON MKTPLACE PMTS..."), true],
    ["truncated with space before the dots", row("2024-03-10", "-12.50", "AMAZON MKTPLACE ..."), true],
    ["truncated prefix that differs", row("2024-03-10", "-12.50", "AMAZON MKTPLACE PAY..."), false],
    ["prefix of 8 characters is enough", row("2024-03-10", "-12.50", "AMAZON M..."), true],
    ["prefix of 7 characters is too short", row("2024-03-10", "-12.50", "AMAZON ..."), false],
    ["a one-letter prefix matches nothing", row("2024-03-10", "-12.50", "A..."), false],
    ["truncated and one day off", row("2024-03-11", "-12.50", "AMAZON MKTPLACE..."), true],
  ])("%s", (_name, incoming, matches) => {
    const finder = createDuplicateFinder([base]);
    expect(finder.find(incoming)?.id).toBe(matches ? "s1" : undefined);
  });

  it.each([
    ["full incoming matches truncated stored", "AMAZON MKTPLACE...", FULL, true],
    ["shorter truncation stored, longer truncation incoming", "AMAZON MKT...", "AMAZON MKTPLACE PM...", true],
    ["short truncation stored matches only itself", "AB...", FULL, false],
    ["short truncation stored, same text incoming", "AB...", "AB...", true],
  ])("%s", (_name, storedDescription, incomingDescription, matches) => {
    const finder = createDuplicateFinder([stored("s1", "2024-03-10", "-12.50", storedDescription)]);
    expect(finder.find(row("2024-03-10", "-12.50", incomingDescription))?.id).toBe(
      matches ? "s1" : undefined,
    );
  });
});

describe("createDuplicateFinder: consumption and choice", () => {
  it("matches one stored row to one incoming row only", () => {
    const finder = createDuplicateFinder([stored("s1", "2024-03-10", "-4.00", "COFFEE")]);
    expect(finder.find(row("2024-03-10", "-4.00", "COFFEE"))?.id).toBe("s1");
    expect(finder.find(row("2024-03-10", "-4.00", "COFFEE"))).toBeUndefined();
  });

  it("matches two stored twins to two incoming twins", () => {
    const finder = createDuplicateFinder([
      stored("s1", "2024-03-10", "-4.00", "COFFEE"),
      stored("s2", "2024-03-10", "-4.00", "COFFEE"),
    ]);
    expect(finder.find(row("2024-03-10", "-4.00", "COFFEE"))?.id).toBe("s1");
    expect(finder.find(row("2024-03-10", "-4.00", "COFFEE"))?.id).toBe("s2");
    expect(finder.find(row("2024-03-10", "-4.00", "COFFEE"))).toBeUndefined();
  });

  it("prefers the same day to a neighbouring one", () => {
    const finder = createDuplicateFinder([
      stored("yesterday", "2024-03-09", "-4.00", "COFFEE"),
      stored("today", "2024-03-10", "-4.00", "COFFEE"),
    ]);
    expect(finder.find(row("2024-03-10", "-4.00", "COFFEE"))?.id).toBe("today");
  });

  it("prefers an exact description to a truncated one on the same day", () => {
    const finder = createDuplicateFinder([
      stored("truncated", "2024-03-10", "-4.00", "COFFEE SHOP MAIN..."),
      stored("exact", "2024-03-10", "-4.00", "COFFEE SHOP MAIN STREET"),
    ]);
    expect(finder.find(row("2024-03-10", "-4.00", "COFFEE SHOP MAIN STREET"))?.id).toBe("exact");
  });

  it("matches across a month and a year end", () => {
    const finder = createDuplicateFinder([stored("s1", "2024-12-31", "-4.00", "COFFEE")]);
    expect(finder.find(row("2025-01-01", "-4.00", "COFFEE"))?.id).toBe("s1");
  });
});

describe("createDuplicateFinder: within one payload", () => {
  it("catches a truncated form of a row inserted earlier from the same payload", () => {
    const finder = createDuplicateFinder<Stored>([]);
    const first = stored("new-1", "2024-03-10", "-30.00", "GROCERY OUTLET BERKELEY CA");
    expect(finder.find(first)).toBeUndefined();
    finder.add(first);
    expect(finder.find(row("2024-03-11", "-30.00", "GROCERY OUTLET BER..."))?.id).toBe("new-1");
  });

  it("catches a full form of a truncated row inserted earlier", () => {
    const finder = createDuplicateFinder<Stored>([]);
    finder.add(stored("new-1", "2024-03-10", "-30.00", "GROCERY OUTLET BER..."));
    expect(finder.find(row("2024-03-10", "-30.00", "GROCERY OUTLET BERKELEY CA"))?.id).toBe("new-1");
  });

  it("keeps two identical purchases of one payload as two rows", () => {
    const finder = createDuplicateFinder<Stored>([]);
    finder.add(stored("new-1", "2024-03-10", "-4.00", "COFFEE"));
    expect(finder.find(row("2024-03-10", "-4.00", "COFFEE"))).toBeUndefined();
  });

  it("two identical incoming against one stored leave one to insert, which later twins don't match", () => {
    const finder = createDuplicateFinder([stored("s1", "2024-03-10", "-4.00", "COFFEE")]);
    expect(finder.find(row("2024-03-10", "-4.00", "COFFEE"))?.id).toBe("s1");
    const second = row("2024-03-10", "-4.00", "COFFEE");
    expect(finder.find(second)).toBeUndefined();
    finder.add({ ...second, id: "new-1" });
    expect(finder.find(row("2024-03-10", "-4.00", "COFFEE"))).toBeUndefined();
  });
});

describe("createDuplicateFinder: scale", () => {
  it("answers 5,000 lookups against 100,000 stored rows", () => {
    const day = (n: number) =>
      new Date(Date.UTC(2020, 0, 1) + (n % 1500) * 86_400_000).toISOString().slice(0, 10);
    const amount = (n: number) => `-${(n % 997) + 1}.${String(n % 100).padStart(2, "0")}`;
    const rows: Stored[] = [];
    for (let n = 0; n < 100_000; n++)
      rows.push(stored(`s${n}`, day(n), amount(n), `MERCHANT NUMBER ${n} CITY ST`));
    const finder = createDuplicateFinder(rows);

    let matched = 0;
    for (let i = 0; i < 5_000; i++) {
      const n = i * 20;
      // Even lookups are truncated forms of a stored row; odd ones are new rows.
      const found =
        i % 2 === 0
          ? finder.find(row(day(n), amount(n), `MERCHANT NUMBER ${n} CI...`))
          : finder.find(row(day(n), amount(n), `OTHER MERCHANT ${n}`));
      if (found) {
        expect(found.id).toBe(`s${n}`);
        matched++;
      }
    }
    expect(matched).toBe(2_500);
  });
});
