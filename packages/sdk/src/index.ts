/*
 * The built package's entry: what `@allot/sdk` gives another project. Inside the monorepo,
 * code imports the files themselves (`@allot/sdk/client`), like every other package.
 */

export type { ActivityEventData } from "@allot/contract/activity/activity-event-data";
export type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
export type { Change, ChangesPage, ChangeType } from "@allot/contract/changes/change";
export { routes } from "@allot/contract/routes";
export { ApiError, isApiError, isValidationError, type ValidationError } from "./api-error";
export type { ChangeFeedOptions, ChangesResource } from "./changes-resource";
export { type Client, type ClientOptions, createClient } from "./client";
export type { FileDownload } from "./file-download";
export type { FileUpload } from "./file-upload";
export { type FileWriteJournalOptions, fileWriteJournal } from "./file-write-journal";
export { idempotencyKeyOf } from "./idempotency-key";
export type { RawRequestOptions, RequestMethod } from "./raw-request";
export type {
  ActivityEvent,
  Allocation,
  ApiKey,
  Bank,
  BankAccount,
  Budget,
  Currency,
  Forecast,
  ForecastEvent,
  ForecastItem,
  FundingOccurrence,
  InternalTransaction,
  Invitation,
  Me,
  Transaction,
  TransactionCategory,
  User,
  Webhook,
  WebhookDelivery,
} from "./resource-types";
export type { AnyRoute, RouteInput, RouteOutput } from "./route-types";
export type { Credentials, Session } from "./session-auth";
export type { TransactionFileField, TransactionsResource } from "./transactions-resource";
export type { RequestOptions, RetryNotice } from "./transport";
export {
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookHeaders,
  type WebhookPayload,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from "./verify-webhook";
export { type JournaledWrite, WRITE_JOURNAL_MAX_AGE_HOURS, type WriteJournal } from "./write-journal";
