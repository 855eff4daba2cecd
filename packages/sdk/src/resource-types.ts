import type { routes } from "@allot/contract/routes";
import type { PageItem, RouteInput, RouteOutput } from "./route-types";

/*
 * Each resource as the API answers it, by name: `const budget: Budget = await client.budgets.get(…)`.
 * Derived from the contract's routes, like every method's type, so they cannot drift.
 */

type Areas = typeof routes;

export type Allocation = RouteOutput<Areas["allocations"]["get"]>;
export type ApiKey = RouteOutput<Areas["apiKeys"]["get"]>;
export type ActivityEvent = PageItem<Areas["activity"]["list"]>;
export type Bank = RouteOutput<Areas["banks"]["get"]>;
export type BankAccount = RouteOutput<Areas["bankAccounts"]["get"]>;
export type Budget = RouteOutput<Areas["budgets"]["get"]>;
export type Currency = RouteOutput<Areas["currencies"]["list"]>[number];
/** docs/spec/extensions.md §8: the answer of `client.forecasts.get` and `client.forecasts.whatIf`. */
export type Forecast = RouteOutput<Areas["forecasts"]["get"]>;
export type ForecastEvent = Forecast["events"][number];
/** One what-if item of `client.forecasts.whatIf`. */
export type ForecastItem = NonNullable<RouteInput<Areas["forecasts"]["whatIf"]>["items"]>[number];
export type FundingOccurrence = RouteOutput<Areas["fundingOccurrences"]["get"]>;
export type InternalTransaction = RouteOutput<Areas["internalTransactions"]["get"]>;
export type Invitation = RouteOutput<Areas["invitations"]["get"]>;
export type Me = RouteOutput<Areas["users"]["getMe"]>;
export type Transaction = RouteOutput<Areas["transactions"]["get"]>;
export type TransactionCategory = RouteOutput<Areas["transactionCategories"]["get"]>;
export type User = RouteOutput<Areas["users"]["get"]>;
export type Webhook = RouteOutput<Areas["webhooks"]["get"]>;
export type WebhookDelivery = PageItem<Areas["webhooks"]["listDeliveries"]>;
