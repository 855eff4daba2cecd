import { currencyRoutes } from "@allot/contract/currencies/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/testing/test-app";

describe.each(testEngines())("currencies over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);

  it("lists every ISO 4217 currency, historic ones with numeric null, sorted by code", async () => {
    const user = await t.user();
    const response = await t.as(user).call(currencyRoutes.list);
    expect(response.statusCode).toBe(200);
    const list: { code: string; name: string; numeric: string | null }[] = response.json();
    expect(Array.isArray(list)).toBe(true);
    const codes = list.map((c) => c.code);
    expect(codes).toEqual([...codes].sort());
    expect(new Set(codes).size).toBe(codes.length);
    for (const entry of list) {
      expect(Object.keys(entry).sort()).toEqual(["code", "name", "numeric"]);
      expect(entry.code).toMatch(/^[A-Z]{3}$/);
      expect(entry.name).not.toBe("");
      if (entry.numeric !== null) expect(entry.numeric).toMatch(/^\d{3}$/);
    }
    expect(list).toContainEqual({ code: "USD", name: "US Dollar", numeric: "840" });
    expect(list).toContainEqual({ code: "JPY", name: "Yen", numeric: "392" });
    expect(list).toContainEqual({ code: "DEM", name: "German Mark", numeric: null });
    expect(list.find((c) => c.code === "FRF")?.numeric).toBeNull();
    expect(list.length).toBeGreaterThan(250);
  });

  it("is open to API keys and closed to anonymous callers", async () => {
    const user = await t.user();
    // Raw: the path without its trailing slash answers too.
    const byKey = await t.inject({
      url: "/api/v1/currencies",
      headers: { authorization: await t.apiKey(user) },
    });
    expect(byKey.statusCode).toBe(200);
    expect((await t.anonymous.call(currencyRoutes.list)).statusCode).toBe(401);
    const wrongMethod = await t.inject({
      method: "POST",
      url: "/api/v1/currencies/",
      headers: { authorization: user.bearer },
    });
    expect(wrongMethod.statusCode).toBe(405);
  });
});
