import { routes } from "@allot/contract/routes";
import { describe, expect, expectTypeOf, it } from "vitest";
import { type MethodName, methodName } from "./resource-names";
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
    // The area's noun at the start goes too: client.funding.summary, not funding.fundingSummary.
    ["fundingSummaryRoute", "funding", "summary"],
    ["fundingEventDatesRoute", "funding", "eventDates"],
    ["runFundingRoute", "funding", "run"],
    ["fundingsRoute", "funding", "fundings"],
    // Renamed by hand where the rule reads badly.
    ["listChannelPreferencesRoute", "preferences", "listChannels"],
    ["updateNotificationPreferenceRoute", "preferences", "updateNotification"],
    ["listAccountInvitationsRoute", "invitations", "listForAccount"],
    ["listMyInvitationsRoute", "invitations", "listMine"],
    ["rotateWebhookSecretRoute", "webhooks", "rotateSecret"],
    ["listWebhookDeliveriesRoute", "webhooks", "listDeliveries"],
    // A name that is only the noun keeps it, rather than becoming empty.
    ["bankAccountsRoute", "bankAccounts", "bankAccounts"],
  ])("%s in %s → %s", (exportName, area, expected) => {
    expect(methodName(exportName, area)).toBe(expected);
  });

  it("types each method name as the function names it", () => {
    expectTypeOf<MethodName<"fundingSummaryRoute", "funding">>().toEqualTypeOf<"summary">();
    expectTypeOf<MethodName<"listBankAccountsRoute", "bankAccounts">>().toEqualTypeOf<"list">();
    expectTypeOf<MethodName<"listMyInvitationsRoute", "invitations">>().toEqualTypeOf<"listMine">();
    expectTypeOf<MethodName<"bankAccountsRoute", "bankAccounts">>().toEqualTypeOf<"bankAccounts">();
    expectTypeOf<MethodName<"listActivityRoute", "activity">>().toEqualTypeOf<"list">();
    expectTypeOf<MethodName<"rotateWebhookSecretRoute", "webhooks">>().toEqualTypeOf<"rotateSecret">();
    expectTypeOf<MethodName<"redeliverWebhookRoute", "webhooks">>().toEqualTypeOf<"redeliver">();
  });
});

describe("the newer areas", () => {
  it("read as sentences: imports, invitations, credentials, preferences, funding, activity, webhooks", () => {
    const resources = generateResources(routes, async () => undefined) as unknown as Record<string, object>;
    const methods = (area: string) => Object.keys(resources[area] ?? {});
    expect(methods("imports")).toEqual(["syncScrape", "transactionDetails"]);
    expect(methods("invitations")).toEqual([
      "listForAccount",
      "invite",
      "cancel",
      "listMine",
      "get",
      "accept",
      "decline",
    ]);
    expect(methods("credentials")).toEqual([
      "changePassword",
      "changeEmail",
      "confirmEmailChange",
      "revokeEmailChange",
      "requestPasswordReset",
      "confirmPasswordReset",
    ]);
    expect(methods("preferences")).toEqual([
      "listChannels",
      "updateChannel",
      "listNotifications",
      "updateNotification",
    ]);
    expect(methods("funding")).toEqual(["run", "eventDates", "summary"]);
    // The activity trail: client.activity.list({ id }), and client.paginate(client.activity.list, …).
    expect(methods("activity")).toEqual(["list"]);
    // client.paginate(client.webhooks.listDeliveries, { id, status: ["failed"] }) walks a webhook's deliveries.
    expect(methods("webhooks")).toEqual([
      "list",
      "create",
      "get",
      "update",
      "delete",
      "rotateSecret",
      "test",
      "listDeliveries",
      "redeliver",
    ]);
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
