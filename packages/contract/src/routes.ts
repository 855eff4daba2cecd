import * as activity from "./activity/routes";
import * as allocations from "./allocations/routes";
import * as apiKeys from "./api-keys/routes";
import * as auth from "./auth/routes";
import * as bankAccounts from "./bank-accounts/routes";
import * as banks from "./banks/routes";
import * as budgets from "./budgets/routes";
import * as changes from "./changes/routes";
import * as credentials from "./credentials/routes";
import * as currencies from "./currencies/routes";
import * as funding from "./funding/routes";
import * as fundingOccurrences from "./funding-occurrences/routes";
import type { RouteSpec } from "./http/route";
import * as imports from "./import/routes";
import * as internalTransactions from "./internal-transactions/routes";
import * as invitations from "./invitations/routes";
import * as preferences from "./preferences/routes";
import * as transactionCategories from "./transaction-categories/routes";
import * as transactions from "./transactions/routes";
import * as users from "./users/routes";
import * as webhooks from "./webhooks/routes";

/**
 * Every route, grouped by API area. Order matters where paths overlap: a static path
 * (`/v1/users/me/`) is listed before the parametric one it would also match.
 */
export const routes = {
  auth,
  users,
  apiKeys,
  credentials,
  banks,
  currencies,
  bankAccounts,
  activity,
  changes,
  budgets,
  transactionCategories,
  transactions,
  allocations,
  internalTransactions,
  funding,
  fundingOccurrences,
  imports,
  preferences,
  invitations,
  webhooks,
};

/** Every route, flat, in declaration order. */
export const allRoutes: RouteSpec[] = Object.values(routes).flatMap(
  (area) => Object.values(area) as RouteSpec[],
);
