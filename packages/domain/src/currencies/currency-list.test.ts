import { describe, expect, it } from "vitest";
import { isActiveCurrency, listCurrencies } from "./currency-list";

describe("currency list", () => {
  const list = listCurrencies();

  it("is sorted by code, one entry a code", () => {
    const codes = list.map((c) => c.code);
    expect(codes).toEqual([...codes].sort());
    expect(new Set(codes).size).toBe(codes.length);
    for (const entry of list) expect(entry.code).toMatch(/^[A-Z]{3}$/);
  });

  it("gives current currencies their numeric code and historic ones null", () => {
    expect(list.find((c) => c.code === "USD")).toEqual({ code: "USD", name: "US Dollar", numeric: "840" });
    expect(list.find((c) => c.code === "EUR")?.numeric).toBe("978");
    expect(list.find((c) => c.code === "DEM")).toEqual({ code: "DEM", name: "German Mark", numeric: null });
    for (const code of ["FRF", "ITL", "HRK", "VEF", "ZWL"]) {
      expect(list.find((c) => c.code === code)?.numeric, code).toBeNull();
    }
    expect(list.filter((c) => c.numeric === null).length).toBeGreaterThan(90);
    for (const entry of list) expect(entry.name.length, entry.code).toBeGreaterThan(0);
  });

  it("accepts only current codes as active", () => {
    expect(isActiveCurrency("USD")).toBe(true);
    expect(isActiveCurrency("EUR")).toBe(true);
    expect(isActiveCurrency("DEM")).toBe(false);
    expect(isActiveCurrency("HRK")).toBe(false);
    expect(isActiveCurrency("XYZ")).toBe(false);
    expect(isActiveCurrency("usd")).toBe(false);
  });

  it("hands out copies, so a caller cannot change the list", () => {
    const first = listCurrencies();
    (first[0] as { name: string }).name = "changed";
    expect(listCurrencies()[0]?.name).not.toBe("changed");
  });
});
