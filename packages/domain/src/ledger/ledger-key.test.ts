import { describe, expect, it } from "vitest";
import { FROM_THE_START, type LedgerKey, minKey } from "./ledger-key";

const key = (at: string, createdAt = "2030-01-01T00:00:00Z"): LedgerKey => ({
  at: new Date(at),
  createdAt: new Date(createdAt),
});

const june = key("2030-06-01T00:00:00Z");
const may = key("2030-05-01T00:00:00Z");
const juneCreatedFirst = key("2030-06-01T00:00:00Z", "2029-12-31T00:00:00Z");

describe("minKey (the earlier of two ledger keys)", () => {
  it.each<{
    given: string;
    a: LedgerKey | undefined;
    b: LedgerKey | undefined;
    earliest: LedgerKey | undefined;
  }>([
    { given: "two keys on different dates", a: june, b: may, earliest: may },
    { given: "the same keys the other way round", a: may, b: june, earliest: may },
    { given: "two keys on one date", a: june, b: juneCreatedFirst, earliest: juneCreatedFirst },
    { given: "one key and no change", a: undefined, b: june, earliest: june },
    { given: "no change and one key", a: june, b: undefined, earliest: june },
    { given: "no change on either side", a: undefined, b: undefined, earliest: undefined },
    { given: "a change from the start and a key", a: june, b: FROM_THE_START, earliest: FROM_THE_START },
    {
      given: "a change from the start and no change",
      a: FROM_THE_START,
      b: undefined,
      earliest: FROM_THE_START,
    },
  ])("given $given, when the earlier is taken, then it is the expected one", ({ a, b, earliest }) => {
    expect(minKey(a, b)).toBe(earliest);
  });

  it("given equal keys, when the earlier is taken, then the first one is kept", () => {
    const copy = key("2030-06-01T00:00:00Z");
    expect(minKey(june, copy)).toBe(june);
  });
});
