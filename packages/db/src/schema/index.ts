// The full schema, for drizzle's relational queries and drizzle-kit.
export { apiKeys } from "./api-keys";
export { bankAccountOwners, bankAccounts } from "./bank-accounts";
export { banks } from "./banks";
export { budgets } from "./budgets";
export { emailChanges, passwordResetRequests, passwordResetTokens } from "./credential-tokens";
export { emailOutbox } from "./email-outbox";
export { fundingOccurrences } from "./funding-occurrences";
export { internalTransactions } from "./internal-transactions";
export { invitations } from "./invitations";
export { notifications } from "./notifications";
export { channelPreferences, notificationPreferences } from "./preferences";
export { scheduledRuns } from "./scheduled-runs";
export { refreshTokens, sessions } from "./sessions";
export { throttleCounters } from "./throttle-counters";
export { transactionAllocations } from "./transaction-allocations";
export { transactionCategories } from "./transaction-categories";
export { transactions } from "./transactions";
export { users } from "./users";
