import { z } from "zod";
import { TransactionAllocationSchema } from "../allocations/allocation";
import {
  booleanField,
  currencyCode,
  dateTimeInput,
  dateTimeOutput,
  describeFields,
  emptyAsNull,
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

const MAYBE = "From the provider's details (transaction-details), or null.";

/** One text for each field, request and response alike. */
const TRANSACTION_DOCS = {
  id: ["The transaction's id.", "4a8c2e6f-1b3d-4f5a-9c7e-2d4f6a8b0c1e"],
  bank_account: ["The id of the account it belongs to.", "7c4e2b19-5a3d-4f8e-a6b1-9d0c3e2f4a58"],
  amount: ["The amount: negative for a debit, positive for a credit.", "-58.20"],
  amount_currency: ["The account's currency (optional in a request).", "USD"],
  party: ["The counterparty, where the bank names one.", "Green Valley Market"],
  posted_date: [
    "When the bank posted it (for a pending one, when it is expected to).",
    "2026-05-02T00:00:00Z",
  ],
  transaction_date: ["When it happened; required on create.", "2026-04-30T17:42:00Z"],
  transaction_type: [
    "What kind of bank transaction it is (e.g. `signature_purchase` a card payment, `ach` a bank transfer, `atm_withdrawal`, `fee`); imported rows may carry an empty type.",
    "signature_purchase",
  ],
  pending: ["Not yet posted: it counts against the available balance only, until resolve-pending.", false],
  memo: ["The caller's note, or null.", "Birthday dinner"],
  raw_description: ["The description as the bank gave it.", "POS DEBIT GREEN VALLEY MKT #112 SPRINGFIELD"],
  description: [
    "The description shown; composed from the details unless the caller edited it.",
    "Green Valley Market",
  ],
  description_user_edited: [
    "The caller edited `description`; provider details no longer recompose it.",
    false,
  ],
  category: ["The id of the transaction's category, or null.", "0e2f4a6c-8b1d-4e3f-a5c7-9e1b3d5f7a9c"],
  category_full_name: ["The category as `group : name`, or null.", "Food : Groceries"],
  merchant_name: [MAYBE, "Green Valley Market"],
  merchant_intermediary: [`The payment intermediary (e.g. a wallet). ${MAYBE}`, null],
  merchant_address: ["The merchant's street address, or null.", "112 Main St"],
  merchant_city: ["The merchant's city, or null.", "Springfield"],
  merchant_region: ["The merchant's region or state, or null.", "IL"],
  merchant_country: ["The merchant's country, or null.", "US"],
  merchant_latitude: ["The merchant's latitude in degrees (decimal text), or null.", "39.781721"],
  merchant_longitude: ["The merchant's longitude in degrees (decimal text), or null.", "-89.650148"],
  merchant_category: [MAYBE, "Grocery Stores, Supermarkets"],
  merchant_category_code: [`The ISO 18245 merchant category code. ${MAYBE}`, "5411"],
  virtual_card_number: [`The virtual card used (last digits). ${MAYBE}`, null],
  has_details: ["The provider's details were attached (transaction-details).", true],
  allocations: ["How its amount is divided among budgets: every allocation of the transaction.", []],
  bank_transaction_id: ["The bank's own id for it, or null.", "TXN-20260502-000381"],
  linked_transaction: ["The id of a linked transaction (e.g. the other side of a transfer), or null.", null],
  bank_account_posted_balance: [
    "The account's posted balance after this transaction (pending debits not deducted).",
    "2391.80",
  ],
  bank_account_posted_balance_currency: ["The account's currency.", "USD"],
  bank_account_available_balance: [
    "The account's available balance after it (pending debits deducted).",
    "2391.80",
  ],
  bank_account_available_balance_currency: ["The account's currency.", "USD"],
  image: ["Where the receipt image is downloaded; null without one.", null],
  image_width: ["The image's width in pixels (read-only).", null],
  image_height: ["The image's height in pixels (read-only).", null],
  document: ["Where the receipt document is downloaded; null without one.", null],
  created_at: ["When the transaction was recorded.", "2026-05-02T06:00:12Z"],
  modified_at: ["When it last changed.", "2026-05-02T06:00:12Z"],
} as const;

export const TransactionSchema = z
  .object(
    describeFields(
      {
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
        image: z.url().nullable(),
        image_width: z.int().nullable(),
        image_height: z.int().nullable(),
        document: z.url().nullable(),
        created_at: dateTimeOutput(),
        modified_at: dateTimeOutput(),
      },
      TRANSACTION_DOCS,
    ),
  )
  .meta({ id: "Transaction", description: "A bank transaction, with its allocations embedded." });

/** Request fields: as the response's, but receipts are uploaded files, not URLs. */
const TRANSACTION_INPUT_DOCS = {
  ...TRANSACTION_DOCS,
  image: "A JPEG, PNG, WebP, GIF or HEIC image (file part); null removes it.",
  document: "A PDF, or an image as `image` takes (file part); null removes it.",
} as const;

export type TransactionView = z.output<typeof TransactionSchema>;

const ATTACHMENT_NOT_A_FILE =
  "Upload a file here (a multipart/form-data file part), or send null or an empty value to remove it.";
/**
 * A receipt file (docs/spec/extensions.md §5): a file part, or null ("" in a form) to remove it;
 * anything else (a URL, say) is refused. A file input left empty (no name, no bytes: what a browser
 * sends when nothing was picked) leaves the file as it is. What the file is, is the domain's rule.
 */
const attachmentField = () =>
  z
    .preprocess(
      // Typed as what the server's body parser gives; the SDK takes its own file types here.
      (input: UploadedFile | null) => {
        const v: unknown = input;
        if (v instanceof UploadedFile && v.filename === "" && v.bytes.length === 0) return undefined;
        // Forms send "" for a cleared field: read it as null.
        return v === "" ? null : v;
      },
      z
        .custom<UploadedFile | null | undefined>(
          (v) => v === undefined || v === null || v instanceof UploadedFile,
          { error: ATTACHMENT_NOT_A_FILE },
        )
        .meta({ override: { type: ["string", "null"], format: "binary" } }),
    )
    .optional();

const optionalText = (max: number) => emptyAsNull(z.string().trim().max(max)).optional();
/** Decimal text, like money: a number is accepted and read as text, but typed out. */
const coordinate = (limit: number) =>
  z
    .preprocess(
      (input: string | null) => {
        const v: unknown = input;
        return typeof v === "number" && Number.isFinite(v) ? String(v) : v === "" ? null : v;
      },
      z
        .string()
        .trim()
        .regex(/^-?\d{1,3}(?:\.\d{1,6})?$/, "Must be a decimal with up to 6 decimal places.")
        .refine((v) => Math.abs(Number(v)) <= limit, `Must be between -${limit} and ${limit}.`)
        .nullable(),
    )
    .optional();

/** Every field a client may send on create; update checks the unchangeable ones against the row. */
export const transactionFields = describeFields(
  {
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
    category: emptyAsNull(uuidField()).optional(),
    merchant_address: optionalText(10_000),
    merchant_city: optionalText(128),
    merchant_region: optionalText(64),
    merchant_country: optionalText(64),
    merchant_latitude: coordinate(90),
    merchant_longitude: coordinate(180),
    bank_transaction_id: optionalText(128),
    image: attachmentField(),
    document: attachmentField(),
  },
  TRANSACTION_INPUT_DOCS,
);

export type TransactionCreateInput = z.output<z.ZodObject<typeof transactionFields>>;

/**
 * PUT/PATCH: transaction_type, memo and description change; the other fields are accepted when
 * they repeat the stored value and refused (400 on the field) otherwise.
 */
export const transactionUpdateFields = describeFields(
  {
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
  },
  TRANSACTION_INPUT_DOCS,
);

export type TransactionUpdateInput = z.output<z.ZodObject<typeof transactionUpdateFields>>;
