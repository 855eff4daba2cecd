import { z } from "zod";
import { TransactionAllocationSchema } from "../allocations/allocation";
import {
  accountFilter,
  booleanField,
  currencyCode,
  dateTimeFilter,
  dateTimeInput,
  emptyAsNull,
  moneyInput,
  noContent,
  orderingField,
  pageQuery,
  paginated,
  uuidField,
} from "../http/fields";
import { defineRoute } from "../http/route";
import {
  ATTACHMENT_BODY_MAX_BYTES,
  SPLITS_MAX,
  TRANSACTION_ORDERING,
  TRANSACTION_TYPES,
  TransactionSchema,
  transactionFields,
  transactionUpdateFields,
} from "./transaction";

const tags = ["transactions"];
const id = uuidField().meta({ description: "The transaction's id." });

// Kept as text: the domain reads a bare date in `*_to` as the whole day.
const textFilter = (description: string) => z.string().max(200).meta({ description }).optional();

/** The bytes of a receipt file: documented as binary, never parsed as JSON. */
const fileBytes = () =>
  z
    .custom<Uint8Array>((v) => v instanceof Uint8Array)
    .meta({ override: { type: "string", format: "binary" } });

const fileRoute = (field: "image" | "document") =>
  defineRoute({
    method: "GET",
    path: `/v1/transactions/{id}/${field}/`,
    status: 200,
    summary: `Download the transaction's ${field} (404 without one), with its content type and uploaded name`,
    description: `The transaction's ${field === "image" ? "image receipt" : "document receipt (a PDF or an image)"} as uploaded, with its detected content type and its file name in Content-Disposition. 404 when the transaction has none.`,
    tags,
    access: "user",
    download: true,
    // Not `transactions-getTransactionImage`: the operation ids published before the keys were the SDK's.
    operationId: `transactions-${field}`,
    input: z.object({ id }),
    output: fileBytes(),
  });

/** The transactions routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const transactionRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/transactions/",
    status: 200,
    summary: "Transactions of the caller's accounts, allocations embedded (newest transaction date first)",
    description:
      "Transactions of the caller's accounts with their allocations embedded, newest transaction date first unless `ordering` says otherwise, paginated. Many filters combine (AND); `search` matches description, raw description and party.",
    tags,
    access: "user",
    input: z.object({
      bank_account: accountFilter(),
      budget: uuidField().meta({ description: "Transactions with an allocation to this budget." }).optional(),
      category: uuidField().meta({ description: "The transaction's own category." }).optional(),
      category_group: textFilter("The transaction category's group, exact, any case."),
      merchant_category_code: textFilter("Exact."),
      merchant_city: textFilter("Exact, any case."),
      merchant_intermediary: textFilter("Substring, any case."),
      merchant_name: textFilter("Substring, any case."),
      merchant_region: textFilter("Exact, any case."),
      virtual_card_last4: z
        .string()
        .trim()
        .regex(/^\d{4}$/, "Must be 4 digits.")
        .meta({ description: "The last four digits of the virtual card number." })
        .optional(),
      amount_min: moneyInput()
        .meta({
          description:
            "amount at or above this, signed (inclusive): -50.00 takes in debits of up to 50.00 and every credit.",
          example: "-50.00",
        })
        .optional(),
      amount_max: moneyInput()
        .meta({
          description:
            "amount at or below this, signed (inclusive): -50.00 takes in debits of 50.00 or more; not below amount_min.",
          example: "-20.00",
        })
        .optional(),
      date_from: dateTimeFilter("transaction_date on or after."),
      date_to: dateTimeFilter("transaction_date on or before."),
      posted_date_from: dateTimeFilter("posted_date on or after."),
      posted_date_to: dateTimeFilter("posted_date on or before."),
      has_details: booleanField()
        .meta({ description: "true: provider details are attached; false: they are not." })
        .optional(),
      pending: booleanField()
        .meta({ description: "true: pending transactions only; false: posted ones only." })
        .optional(),
      unallocated: booleanField()
        .meta({ description: "true: no allocation to a budget other than Unallocated; false: at least one." })
        .optional(),
      uncategorized: booleanField()
        .meta({ description: "true: the transaction has no category; false: it has one." })
        .optional(),
      transaction_type: z
        .union([z.enum(TRANSACTION_TYPES), z.literal("")])
        .meta({ description: "An empty value does not filter." })
        .optional(),
      search: z
        .string()
        .max(200)
        .meta({ description: "Substring of description, raw_description or party, any case." })
        .optional(),
      ordering: orderingField(TRANSACTION_ORDERING).optional(),
      ...pageQuery,
    }),
    output: paginated(TransactionSchema),
  }),

  create: defineRoute({
    method: "POST",
    path: "/v1/transactions/",
    status: 201,
    summary:
      "Create a transaction; its whole amount is allocated to the Unallocated budget (or auto_spend budget)",
    description:
      "Records a transaction in an account the caller co-owns and updates the account's balances (a pending debit only the available balance). Its whole amount is allocated to the Unallocated budget, or to the budget whose `auto_spend` lists its category. Receipts (`image`, `document`) may be sent as multipart file parts.",
    tags,
    access: "user",
    events: ["transaction.created"],
    body: { files: true, maxBytes: ATTACHMENT_BODY_MAX_BYTES },
    input: z.object(transactionFields),
    output: TransactionSchema,
  }),

  get: defineRoute({
    method: "GET",
    path: "/v1/transactions/{id}/",
    status: 200,
    summary: "Retrieve a transaction",
    description: "One transaction, with all its allocations embedded and the account balances after it.",
    tags,
    access: "user",
    input: z.object({ id }),
    output: TransactionSchema,
  }),

  replace: defineRoute({
    method: "PUT",
    path: "/v1/transactions/{id}/",
    status: 200,
    summary: "Replace transaction_type, memo and description (other fields may only repeat their values)",
    description:
      "Sets `transaction_type`, `memo` and `description`, the only mutable fields; the others may only repeat their stored values. An edited description is kept when provider details arrive later. Receipts may be replaced or removed.",
    tags,
    access: "user",
    events: ["transaction.updated"],
    body: { files: true, maxBytes: ATTACHMENT_BODY_MAX_BYTES },
    input: z.object({ id, ...transactionUpdateFields, transaction_type: transactionFields.transaction_type }),
    output: TransactionSchema,
  }),

  update: defineRoute({
    method: "PATCH",
    path: "/v1/transactions/{id}/",
    status: 200,
    summary: "Update transaction_type, memo or description",
    description:
      "Updates some of `transaction_type`, `memo` and `description`. Receipts may be replaced or removed.",
    tags,
    access: "user",
    events: ["transaction.updated"],
    body: { files: true, maxBytes: ATTACHMENT_BODY_MAX_BYTES },
    input: z.object({ id, ...transactionUpdateFields }),
    output: TransactionSchema,
  }),

  delete: defineRoute({
    method: "DELETE",
    path: "/v1/transactions/{id}/",
    status: 204,
    summary: "Delete a transaction: its balance changes are reversed and its allocations removed",
    description:
      "Deletes the transaction with its allocations and receipts; its effect on the account and budget balances is reversed.",
    tags,
    access: "user",
    events: ["transaction.deleted"],
    operationId: "transactions-remove",
    input: z.object({ id }),
    output: noContent(),
  }),

  resolvePending: defineRoute({
    method: "POST",
    path: "/v1/transactions/{id}/resolve-pending/",
    status: 200,
    summary: "Post a pending transaction, optionally with its final amount",
    description:
      "Turns a pending transaction into a posted one dated `posted_date`. The posted balance is credited; when `amount` differs from the pending amount, the available balance and the Unallocated allocation are adjusted in the same transaction.",
    tags,
    access: "user",
    events: ["transaction.posted"],
    input: z.object({
      id,
      posted_date: dateTimeInput().meta({
        description:
          "When the bank posted it: an ISO 8601 date-time, or a date (the start of that day in the account's time zone).",
        example: "2026-05-03T00:00:00Z",
      }),
      amount: emptyAsNull(moneyInput())
        .meta({
          description: "The final amount, when it differs from the pending one; absent or null: unchanged.",
          example: "-61.70",
        })
        .optional(),
      amount_currency: currencyCode()
        .meta({ description: "The account's currency (optional).", example: "USD" })
        .optional(),
    }),
    output: TransactionSchema,
  }),

  split: defineRoute({
    method: "POST",
    path: "/v1/transactions/{id}/splits/",
    status: 200,
    summary: "Divide a posted transaction among budgets; the remainder goes to Unallocated",
    description:
      "Divides the transaction among budgets of its account: `splits` maps each budget id to a positive amount (the sign follows the transaction). Existing allocations are created, updated or deleted to match; the undeclared remainder goes to Unallocated. The amounts may not exceed the transaction's. Answers all its allocations after the change.",
    tags,
    access: "user",
    events: ["transaction.split"],
    input: z.object({
      id,
      // Form bodies carry the map as JSON text (typed as the map a JSON client sends). The key count
      // is checked before any value, so a huge map costs one 400 naming the limit, not one message
      // per key (or a query per key).
      splits: z
        .preprocess(
          (input: Record<string, string>, ctx) => {
            let value: unknown = input;
            if (typeof value === "string") {
              try {
                value = JSON.parse(value);
              } catch {
                return value;
              }
            }
            if (value !== null && typeof value === "object" && Object.keys(value).length > SPLITS_MAX) {
              ctx.addIssue({
                code: "custom",
                message: `Ensure this field has no more than ${SPLITS_MAX} budgets.`,
                input: value,
              });
              return z.NEVER;
            }
            return value;
          },
          z.record(z.string(), moneyInput()),
        )
        .meta({
          description:
            "Budget id → positive amount for it (the sign follows the transaction); in a form, the map as JSON text. The rest goes to Unallocated.",
          example: {
            "b7d3e1f2-4a6c-4b8e-9d0f-1a2b3c4d5e6f": "40.00",
            "d9f1a3c5-7e2b-4d6f-8a0c-2e4f6a8b1c3d": "18.20",
          },
        }),
    }),
    output: z.array(TransactionAllocationSchema),
  }),

  getTransactionDocument: fileRoute("document"),
  getTransactionImage: fileRoute("image"),
};
