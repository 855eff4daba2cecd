import { bankRoutes } from "@allot/contract/banks/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/testing/test-app";

describe.each(testEngines())("banks over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);

  it("lists and retrieves banks, paginated and ordered", async () => {
    const user = await t.user();
    for (const name of ["Zeta Bank", "Alpha Bank", "Mid Bank"])
      await createBank(internalContext(t.db, "cli"), { name, currency: "USD" });
    const first = await t.as(user).call(bankRoutes.list, { page_size: 2 });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.count).toBe(3);
    expect(body.results.map((b: { name: string }) => b.name)).toEqual(["Alpha Bank", "Mid Bank"]);
    expect(body.previous).toBeNull();
    expect(body.next).toContain("page=2");

    const second = await t.inject({
      url: new URL(String(body.next)).pathname + new URL(String(body.next)).search,
      headers: { authorization: user.bearer },
    });
    expect(second.json().results.map((b: { name: string }) => b.name)).toEqual(["Zeta Bank"]);
    expect(second.json().next).toBeNull();

    const past = await t.as(user).call(bankRoutes.list, { page: 3, page_size: 2 });
    expect(past.statusCode).toBe(404);
    expect(past.json()).toEqual({ detail: "Invalid page.", code: "not_found" });

    // Raw: the list's path without its trailing slash answers too.
    const desc = await t.inject({
      url: "/api/v1/banks?ordering=-name",
      headers: { authorization: user.bearer },
    });
    expect(desc.json().results[0].name).toBe("Zeta Bank");

    const one = await t.as(user).call(bankRoutes.get, { id: String(body.results[0]?.id) });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ name: "Alpha Bank", default_currency: "USD", routing_number: null });
  });

  it("answers 401 without credentials, 404 for unknown and malformed ids, 405 for a wrong method", async () => {
    const user = await t.user();
    expect((await t.anonymous.call(bankRoutes.list)).statusCode).toBe(401);
    const unknown = await t.as(user).call(bankRoutes.get, { id: "00000000-0000-4000-8000-000000000000" });
    expect(unknown.statusCode).toBe(404);
    const malformed = await t.as(user).call(bankRoutes.get, { id: "not-a-uuid" });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json<{ code: string }>().code).toBe("not_found");
    const wrongMethod = await t.inject({
      method: "DELETE",
      url: "/api/v1/banks/",
      headers: { authorization: user.bearer },
    });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe("GET");
    expect((await t.inject({ url: "/api/v1/nothing-here/" })).statusCode).toBe(404);
  });

  it("refuses bad list parameters with 400 on the parameter", async () => {
    const user = await t.user();
    const response = await t.as(user).callUnchecked(bankRoutes.list, { ordering: "colour" });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json())).toEqual(["ordering"]);
    const capped = await t.as(user).call(bankRoutes.list, { page_size: 9999 });
    expect(capped.statusCode).toBe(200);
  });
});
