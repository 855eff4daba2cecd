import { z } from "zod";
import { TransactionAllocationSchema } from "../allocations/allocation";
import {
  booleanField,
  currencyCode,
  dateTimeFilter,
  dateTimeInput,
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
const id = uuidField();

// Kept as text: the domain reads a bare date in `*_to` as the whole day.
const textFilter = (description: string) => z.string().max(200).optional().meta({ description });

export const listTransactionsRoute = defineRoute({
  method: "GET",
  path: "/v1/transactions/",
  status: 200,
  summary: "Transactions of the caller's accounts, allocations embedded (newest transaction date first)",
  tags,
  access: "user",
  input: z.object({
    bank_account: uuidField().optional(),
    budget: uuidField().optional().meta({ description: "Transactions with an allocation to this budget." }),
    category: uuidField().optional().meta({ description: "The transaction's own category." }),
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
      .optional()
      .meta({ description: "The last four digits of the virtual card number." }),
    date_from: dateTimeFilter("transaction_date on or after."),
    date_to: dateTimeFilter("transaction_date on or before."),
    posted_date_from: dateTimeFilter("posted_date on or after."),
    posted_date_to: dateTimeFilter("posted_date on or before."),
    has_details: booleanField().optional(),
    pending: booleanField().optional(),
    unallocated: booleanField()
      .optional()
      .meta({ description: "true: no allocation to a budget other than Unallocated; false: at least one." }),
    uncategorized: booleanField()
      .optional()
      .meta({ description: "true: the transaction has no category; false: it has one." }),
    transaction_type: z
      .union([z.enum(TRANSACTION_TYPES), z.literal("")])
      .optional()
      .meta({ description: "An empty value does not filter." }),
    search: z
      .string()
      .max(200)
      .optional()
      .meta({ description: "Substring of description, raw_description or party, any case." }),
    ordering: orderingField(TRANSACTION_ORDERING).optional(),
    ...pageQuery,
  }),
  output: paginated(TransactionSchema),
});

export const createTransactionRoute = defineRoute({
  method: "POST",
  path: "/v1/transactions/",
  status: 201,
  summary:
    "Create a transaction; its whole amount is allocated to the Unallocated budget (or auto_spend budget)",
  tags,
  access: "user",
  body: { files: true, maxBytes: ATTACHMENT_BODY_MAX_BYTES },
  input: z.object(transactionFields),
  output: TransactionSchema,
});

export const getTransactionRoute = defineRoute({
  method: "GET",
  path: "/v1/transactions/{id}/",
  status: 200,
  summary: "Retrieve a transaction",
  tags,
  access: "user",
  input: z.object({ id }),
  output: TransactionSchema,
});

export const replaceTransactionRoute = defineRoute({
  method: "PUT",
  path: "/v1/transactions/{id}/",
  status: 200,
  summary: "Replace transaction_type, memo and description (other fields may only repeat their values)",
  tags,
  access: "user",
  body: { files: true, maxBytes: ATTACHMENT_BODY_MAX_BYTES },
  input: z.object({ id, ...transactionUpdateFields, transaction_type: transactionFields.transaction_type }),
  output: TransactionSchema,
});

export const updateTransactionRoute = defineRoute({
  method: "PATCH",
  path: "/v1/transactions/{id}/",
  status: 200,
  summary: "Update transaction_type, memo or description",
  tags,
  access: "user",
  body: { files: true, maxBytes: ATTACHMENT_BODY_MAX_BYTES },
  input: z.object({ id, ...transactionUpdateFields }),
  output: TransactionSchema,
});

export const deleteTransactionRoute = defineRoute({
  method: "DELETE",
  path: "/v1/transactions/{id}/",
  status: 204,
  summary: "Delete a transaction: its balance changes are reversed and its allocations removed",
  tags,
  access: "user",
  input: z.object({ id }),
  output: noContent(),
});

export const resolvePendingRoute = defineRoute({
  method: "POST",
  path: "/v1/transactions/{id}/resolve-pending/",
  status: 200,
  summary: "Post a pending transaction, optionally with its final amount",
  tags,
  access: "user",
  input: z.object({
    id,
    posted_date: dateTimeInput(),
    amount: z.preprocess((v) => (v === "" ? null : v), moneyInput().nullable()).optional(),
    amount_currency: currencyCode().optional(),
  }),
  output: TransactionSchema,
});

export const splitTransactionRoute = defineRoute({
  method: "POST",
  path: "/v1/transactions/{id}/splits/",
  status: 200,
  summary: "Divide a posted transaction among budgets; the remainder goes to Unallocated",
  tags,
  access: "user",
  input: z.object({
    id,
    // Form bodies carry the map as JSON text. The key count is checked before any value, so a
    // huge map costs one 400 naming the limit, not one message per key (or a query per key).
    splits: z.preprocess(
      (v, ctx) => {
        let value = v;
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
    ),
  }),
  output: z.array(TransactionAllocationSchema),
});

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
    tags,
    access: "user",
    download: true,
    input: z.object({ id }),
    output: fileBytes(),
  });

export const getTransactionImageRoute = fileRoute("image");
export const getTransactionDocumentRoute = fileRoute("document");
