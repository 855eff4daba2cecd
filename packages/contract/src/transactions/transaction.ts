import { z } from "zod";
import { TransactionAllocationSchema } from "../allocations/allocation";
import {
  booleanField,
  currencyCode,
  dateTimeInput,
  dateTimeOutput,
  moneyInput,
  moneyOutput,
  uuidField,
} from "../http/fields";
import { UploadedFile } from "../http/uploaded-file";

export const TRANSACTION_TYPES = [
  "signature_purchase",
  "ach",
  "round-up_transfer",
  "protected_goal_account_transfer",
  "fee",
  "pin_purchase",
  "signature_credit",
  "interest_credit",
  "shared_transfer",
  "courtesy_credit",
  "atm_withdrawal",
  "bill_payment",
  "bank_generated_credit",
  "wire_transfer",
  "check_deposit",
  "check",
  "c2c",
  "migration_interbank_transfer",
  "balance_sweep",
  "ach_reversal",
  "adjustment",
  "signature_return",
  "fx_order",
] as const;

/** The largest receipt file: "10 MB" in docs/spec/extensions.md §5, read as SI (10,000,000 bytes),
 * so a file the contract calls too large is never taken; ATTACHMENT_MAX_BYTES may lower it. */
export const ATTACHMENT_MAX_BYTES = 10_000_000;
/** A transaction write's whole body (21 MiB): both files at their largest, and room for the other fields. */
export const ATTACHMENT_BODY_MAX_BYTES = 21 * 1024 * 1024;

/** A split names at most this many budgets (and at most as many as the account has). */
export const SPLITS_MAX = 1_000;

export const TRANSACTION_ORDERING = ["transaction_date", "amount", "created_at"] as const;

export const TransactionSchema = z
  .object({
    id: z.uuid(),
    bank_account: z.uuid(),
    amount: moneyOutput(),
    amount_currency: z.string(),
    party: z.string().nullable(),
    posted_date: dateTimeOutput(),
    transaction_date: dateTimeOutput().nullable(),
    // Imported rows may carry an empty type; only the spec's values are accepted from clients.
    transaction_type: z.string(),
    pending: z.boolean(),
    memo: z.string().nullable(),
    raw_description: z.string(),
    description: z.string(),
    description_user_edited: z.boolean(),
    category: z.uuid().nullable(),
    category_full_name: z.string().nullable(),
    merchant_name: z.string().nullable(),
    merchant_intermediary: z.string().nullable(),
    merchant_address: z.string().nullable(),
    merchant_city: z.string().nullable(),
    merchant_region: z.string().nullable(),
    merchant_country: z.string().nullable(),
    merchant_latitude: z.string().nullable(),
    merchant_longitude: z.string().nullable(),
    merchant_category: z.string().nullable(),
    merchant_category_code: z.string().nullable(),
    virtual_card_number: z.string().nullable(),
    has_details: z.boolean(),
    allocations: z.array(TransactionAllocationSchema),
    bank_transaction_id: z.string().nullable(),
    linked_transaction: z.uuid().nullable(),
    bank_account_posted_balance: moneyOutput(),
    bank_account_posted_balance_currency: z.string(),
    bank_account_available_balance: moneyOutput(),
    bank_account_available_balance_currency: z.string(),
    image: z
      .url()
      .nullable()
      .meta({ description: "Where the receipt image is downloaded; null without one." }),
    image_width: z.int().nullable().meta({ description: "The image's width in pixels (read-only)." }),
    image_height: z.int().nullable().meta({ description: "The image's height in pixels (read-only)." }),
    document: z
      .url()
      .nullable()
      .meta({ description: "Where the receipt document is downloaded; null without one." }),
    created_at: dateTimeOutput(),
    modified_at: dateTimeOutput(),
  })
  .meta({ id: "Transaction" });

export type TransactionView = z.output<typeof TransactionSchema>;

// Forms send "" for a cleared field: read it as null.
const blankAsNull = (v: unknown) => (v === "" ? null : v);
const ATTACHMENT_NOT_A_FILE =
  "Upload a file here (a multipart/form-data file part), or send null or an empty value to remove it.";
/**
 * A receipt file (docs/spec/extensions.md §5): a file part, or null ("" in a form) to remove it;
 * anything else (a URL, say) is refused. A file input left empty (no name, no bytes: what a browser
 * sends when nothing was picked) leaves the file as it is. What the file is, is the domain's rule.
 */
const attachmentField = (description: string) =>
  z
    .preprocess(
      (v) =>
        v instanceof UploadedFile && v.filename === "" && v.bytes.length === 0 ? undefined : blankAsNull(v),
      z
        .custom<UploadedFile | null | undefined>(
          (v) => v === undefined || v === null || v instanceof UploadedFile,
          { error: ATTACHMENT_NOT_A_FILE },
        )
        .meta({ override: { type: ["string", "null"], format: "binary" } }),
    )
    .optional()
    .meta({ description });

const optionalText = (max: number) =>
  z.preprocess(blankAsNull, z.string().trim().max(max).nullable()).optional();
const coordinate = (limit: number) =>
  z
    .preprocess(
      (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : blankAsNull(v)),
      z
        .string()
        .trim()
        .regex(/^-?\d{1,3}(?:\.\d{1,6})?$/, "Must be a decimal with up to 6 decimal places.")
        .refine((v) => Math.abs(Number(v)) <= limit, `Must be between -${limit} and ${limit}.`)
        .nullable(),
    )
    .optional();

/** Every field a client may send on create; update checks the unchangeable ones against the row. */
export const transactionFields = {
  bank_account: uuidField(),
  amount: moneyInput(),
  amount_currency: currencyCode().optional(),
  transaction_date: dateTimeInput(),
  posted_date: dateTimeInput().optional(),
  transaction_type: z.enum(TRANSACTION_TYPES),
  pending: booleanField().optional(),
  memo: optionalText(10_000),
  raw_description: z.string().trim().min(1, "This field may not be blank.").max(10_000),
  description: z.string().trim().max(10_000).optional(),
  category: z.preprocess(blankAsNull, uuidField().nullable()).optional(),
  merchant_address: optionalText(10_000),
  merchant_city: optionalText(128),
  merchant_region: optionalText(64),
  merchant_country: optionalText(64),
  merchant_latitude: coordinate(90),
  merchant_longitude: coordinate(180),
  bank_transaction_id: optionalText(128),
  image: attachmentField("A JPEG, PNG, WebP, GIF or HEIC image (file part); null removes it."),
  document: attachmentField("A PDF, or an image as `image` takes (file part); null removes it."),
};

export type TransactionCreateInput = z.output<z.ZodObject<typeof transactionFields>>;

/**
 * PUT/PATCH: transaction_type, memo and description change; the other fields are accepted when
 * they repeat the stored value and refused (400 on the field) otherwise.
 */
export const transactionUpdateFields = {
  transaction_type: transactionFields.transaction_type.optional(),
  memo: transactionFields.memo,
  description: z.string().trim().min(1, "This field may not be blank.").max(10_000).optional(),
  bank_account: uuidField().optional(),
  amount: moneyInput().optional(),
  amount_currency: transactionFields.amount_currency,
  transaction_date: dateTimeInput().optional(),
  posted_date: dateTimeInput().optional(),
  raw_description: transactionFields.raw_description.optional(),
  pending: transactionFields.pending,
  category: transactionFields.category,
  merchant_address: transactionFields.merchant_address,
  merchant_city: transactionFields.merchant_city,
  merchant_region: transactionFields.merchant_region,
  merchant_country: transactionFields.merchant_country,
  merchant_latitude: transactionFields.merchant_latitude,
  merchant_longitude: transactionFields.merchant_longitude,
  bank_transaction_id: transactionFields.bank_transaction_id,
  image: transactionFields.image,
  document: transactionFields.document,
};

export type TransactionUpdateInput = z.output<z.ZodObject<typeof transactionUpdateFields>>;
