import { routes } from "@allot/contract/routes";
import { describe, expect, it } from "vitest";
import { methodName } from "./resource-names";
import { generateResources } from "./resources";

describe("methodName", () => {
  it.each([
    ["listBankAccountsRoute", "bankAccounts", "list"],
    ["getBankAccountRoute", "bankAccounts", "get"],
    ["markImportedRoute", "bankAccounts", "markImported"],
    ["getMeRoute", "users", "getMe"],
    ["listUsersRoute", "users", "list"],
    ["updateUserRoute", "users", "update"],
    ["revokeAllApiKeysRoute", "apiKeys", "revokeAll"],
    ["revokeApiKeyRoute", "apiKeys", "revoke"],
    ["listCurrenciesRoute", "currencies", "list"],
    ["loginRoute", "auth", "login"],
    // A name that is only the noun keeps it, rather than becoming empty.
    ["bankAccountsRoute", "bankAccounts", "bankAccounts"],
  ])("%s in %s → %s", (exportName, area, expected) => {
    expect(methodName(exportName, area)).toBe(expected);
  });
});

describe("generateResources", () => {
  it("gives every route of the contract its own method, in every area", () => {
    const called: string[] = [];
    const resources = generateResources(routes, async (route) =>
      called.push(`${route.method} ${route.path}`),
    );
    for (const [area, exports] of Object.entries(routes)) {
      const methods = Object.keys((resources as Record<string, object>)[area] ?? {});
      expect(methods).toHaveLength(Object.keys(exports).length);
    }
    expect(Object.keys(resources.banks)).toEqual(["list", "get"]);
    expect(Object.keys(resources.users)).toContain("getMe");
    void resources.users.getMe();
    expect(called).toEqual(["GET /v1/users/me/"]);
  });

  it("refuses a contract where two routes of an area would share a method name", () => {
    const clash = {
      banks: { listBanksRoute: routes.banks.listBanksRoute, listRoute: routes.banks.listBanksRoute },
    };
    expect(() => generateResources(clash as unknown as typeof routes, async () => undefined)).toThrow(
      "two routes of 'banks' map to the method 'list'",
    );
  });
});
