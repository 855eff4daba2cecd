import type { routes } from "@allot/contract/routes";
import { router } from "../trpc/trpc";
import { activityRouter } from "./activity/activity-router";
import { allocationsRouter } from "./allocations/allocations-router";
import { apiKeysRouter } from "./api-keys/api-keys-router";
import { authRouter } from "./auth/auth-router";
import { bankAccountsRouter } from "./bank-accounts/bank-accounts-router";
import { banksRouter } from "./banks/banks-router";
import { budgetsRouter } from "./budgets/budgets-router";
import { changesRouter } from "./changes/changes-router";
import { credentialsRouter } from "./credentials/credentials-router";
import { currenciesRouter } from "./currencies/currencies-router";
import { forecastsRouter } from "./forecasts/forecasts-router";
import { fundingRouter } from "./funding/funding-router";
import { fundingOccurrencesRouter } from "./funding-occurrences/funding-occurrences-router";
import { importRouter } from "./import/import-router";
import { internalTransactionsRouter } from "./internal-transactions/internal-transactions-router";
import { invitationsRouter } from "./invitations/invitations-router";
import { preferencesRouter } from "./preferences/preferences-router";
import { transactionCategoriesRouter } from "./transaction-categories/transaction-categories-router";
import { transactionsRouter } from "./transactions/transactions-router";
import { usersRouter } from "./users/users-router";
import { webhooksRouter } from "./webhooks/webhooks-router";

/**
 * Every procedure, one sub-router per API area of the contract, under the area's own name.
 * trpc-to-openapi takes the first match where paths overlap, so areas and procedures keep the
 * contract's order (static paths before parametric).
 */
export const appRouter = router({
  auth: authRouter,
  users: usersRouter,
  apiKeys: apiKeysRouter,
  credentials: credentialsRouter,
  banks: banksRouter,
  currencies: currenciesRouter,
  bankAccounts: bankAccountsRouter,
  activity: activityRouter,
  changes: changesRouter,
  budgets: budgetsRouter,
  transactionCategories: transactionCategoriesRouter,
  transactions: transactionsRouter,
  allocations: allocationsRouter,
  internalTransactions: internalTransactionsRouter,
  funding: fundingRouter,
  forecasts: forecastsRouter,
  fundingOccurrences: fundingOccurrencesRouter,
  imports: importRouter,
  preferences: preferencesRouter,
  invitations: invitationsRouter,
  webhooks: webhooksRouter,
} satisfies Record<keyof typeof routes, unknown>);

export type AppRouter = typeof appRouter;
