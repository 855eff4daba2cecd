import type { routes } from "@allot/contract/routes";
import type { PageItem, RouteOutput } from "./route-types";

/*
 * Each resource as the API answers it, by name: `const budget: Budget = await client.budgets.get(…)`.
 * Derived from the contract's routes, like every method's type, so they cannot drift.
 */

type Areas = typeof routes;

export type Allocation = RouteOutput<Areas["allocations"]["getAllocationRoute"]>;
export type ApiKey = RouteOutput<Areas["apiKeys"]["getApiKeyRoute"]>;
export type ActivityEvent = PageItem<Areas["activity"]["listActivityRoute"]>;
export type Bank = RouteOutput<Areas["banks"]["getBankRoute"]>;
export type BankAccount = RouteOutput<Areas["bankAccounts"]["getBankAccountRoute"]>;
export type Budget = RouteOutput<Areas["budgets"]["getBudgetRoute"]>;
export type Currency = RouteOutput<Areas["currencies"]["listCurrenciesRoute"]>[number];
export type FundingOccurrence = RouteOutput<Areas["fundingOccurrences"]["getFundingOccurrenceRoute"]>;
export type InternalTransaction = RouteOutput<Areas["internalTransactions"]["getInternalTransactionRoute"]>;
export type Invitation = RouteOutput<Areas["invitations"]["getInvitationRoute"]>;
export type Me = RouteOutput<Areas["users"]["getMeRoute"]>;
export type Transaction = RouteOutput<Areas["transactions"]["getTransactionRoute"]>;
export type TransactionCategory = RouteOutput<Areas["transactionCategories"]["getTransactionCategoryRoute"]>;
export type User = RouteOutput<Areas["users"]["getUserRoute"]>;
export type Webhook = RouteOutput<Areas["webhooks"]["getWebhookRoute"]>;
export type WebhookDelivery = PageItem<Areas["webhooks"]["listWebhookDeliveriesRoute"]>;
