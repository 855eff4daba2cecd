import { activityRoutes } from "./activity/routes";
import { allocationRoutes } from "./allocations/routes";
import { apiKeyRoutes } from "./api-keys/routes";
import { authRoutes } from "./auth/routes";
import { bankAccountRoutes } from "./bank-accounts/routes";
import { bankRoutes } from "./banks/routes";
import { budgetRoutes } from "./budgets/routes";
import { changeRoutes } from "./changes/routes";
import { credentialRoutes } from "./credentials/routes";
import { currencyRoutes } from "./currencies/routes";
import { forecastRoutes } from "./forecasts/routes";
import { fundingRoutes } from "./funding/routes";
import { fundingOccurrenceRoutes } from "./funding-occurrences/routes";
import type { RouteSpec } from "./http/route";
import { importRoutes } from "./import/routes";
import { internalTransactionRoutes } from "./internal-transactions/routes";
import { invitationRoutes } from "./invitations/routes";
import { preferenceRoutes } from "./preferences/routes";
import { transactionCategoryRoutes } from "./transaction-categories/routes";
import { transactionRoutes } from "./transactions/routes";
import { userRoutes } from "./users/routes";
import { webhookRoutes } from "./webhooks/routes";

/**
 * Every route, grouped by API area: `routes.budgets.delete` is `client.budgets.delete` in the SDK
 * and the procedure `budgets.delete` in the API. Order matters where paths overlap: a static path
 * (`/v1/users/me/`) is listed before the parametric one it would also match.
 */
export const routes = {
  auth: authRoutes,
  users: userRoutes,
  apiKeys: apiKeyRoutes,
  credentials: credentialRoutes,
  banks: bankRoutes,
  currencies: currencyRoutes,
  bankAccounts: bankAccountRoutes,
  activity: activityRoutes,
  changes: changeRoutes,
  budgets: budgetRoutes,
  transactionCategories: transactionCategoryRoutes,
  transactions: transactionRoutes,
  allocations: allocationRoutes,
  internalTransactions: internalTransactionRoutes,
  funding: fundingRoutes,
  forecasts: forecastRoutes,
  fundingOccurrences: fundingOccurrenceRoutes,
  imports: importRoutes,
  preferences: preferenceRoutes,
  invitations: invitationRoutes,
  webhooks: webhookRoutes,
};

/** Every route, flat, in declaration order. */
export const allRoutes: RouteSpec[] = Object.values(routes).flatMap((area) => Object.values(area));
