import { routes } from "@allot/contract/routes";
import { describe, expect, expectTypeOf, it } from "vitest";
import { generateResources } from "./resources";

/*
 * The SDK's method names are public: they are the contract's route keys. Every published name is
 * written out here, so a renamed or removed key breaks this test before it breaks a user's
 * program; a new route adds a method and needs nothing here.
 */
const PUBLIC_METHODS = {
  auth: ["login", "refresh", "logout"],
  users: ["getMe", "updateMe", "list", "get", "replace", "update"],
  apiKeys: ["list", "create", "revokeAll", "get", "revoke"],
  credentials: [
    "changePassword",
    "changeEmail",
    "confirmEmailChange",
    "revokeEmailChange",
    "requestPasswordReset",
    "confirmPasswordReset",
  ],
  banks: ["list", "get"],
  currencies: ["list"],
  bankAccounts: ["list", "create", "get", "replace", "update", "delete", "markImported"],
  activity: ["list"],
  changes: ["list"],
  budgets: ["list", "create", "get", "replace", "update", "delete", "archive"],
  transactionCategories: ["list", "create", "get", "replace", "update", "delete", "archive"],
  transactions: [
    "list",
    "create",
    "get",
    "replace",
    "update",
    "delete",
    "resolvePending",
    "split",
    "getTransactionDocument",
    "getTransactionImage",
  ],
  allocations: ["list", "get"],
  internalTransactions: ["list", "create", "get"],
  funding: ["run", "eventDates", "summary"],
  forecasts: ["get", "whatIf"],
  fundingOccurrences: ["list", "get"],
  imports: ["syncScrape", "transactionDetails"],
  preferences: ["listChannels", "updateChannel", "listNotifications", "updateNotification"],
  invitations: ["listForAccount", "invite", "cancel", "listMine", "get", "accept", "decline"],
  webhooks: [
    "list",
    "create",
    "get",
    "update",
    "delete",
    "rotateSecret",
    "test",
    "listDeliveries",
    "redeliver",
  ],
};

describe("generateResources", () => {
  it("keeps every method the SDK has published, under its name", () => {
    const resources = generateResources(routes, async () => undefined) as unknown as Record<string, object>;
    for (const [area, names] of Object.entries(PUBLIC_METHODS))
      expect(Object.keys(resources[area] ?? {}), area).toEqual(expect.arrayContaining(names));
  });

  it("calls each method's own route", async () => {
    const called: string[] = [];
    const resources = generateResources(routes, async (route) =>
      called.push(`${route.method} ${route.path}`),
    );
    await resources.users.getMe();
    await resources.budgets.delete({ id: "b7d3e1f2-4a6c-4b8e-9d0f-1a2b3c4d5e6f" });
    await resources.webhooks.listDeliveries({ id: "b7d3e1f2-4a6c-4b8e-9d0f-1a2b3c4d5e6f" });
    expect(called).toEqual([
      "GET /v1/users/me/",
      "DELETE /v1/budgets/{id}/",
      "GET /v1/webhooks/{id}/deliveries/",
    ]);
  });

  it("types each method by its key", () => {
    type Resources = ReturnType<typeof generateResources>;
    expectTypeOf<keyof Resources["funding"]>().toEqualTypeOf<"run" | "eventDates" | "summary">();
    expectTypeOf<keyof Resources["invitations"]>().toEqualTypeOf<
      "listForAccount" | "invite" | "cancel" | "listMine" | "get" | "accept" | "decline"
    >();
  });
});
