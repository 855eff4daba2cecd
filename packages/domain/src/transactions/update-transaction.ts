import type { RouteInput } from "@allot/contract/http/route";
import { decimal } from "@allot/contract/money";
import type { transactionRoutes } from "@allot/contract/transactions/routes";
import type { TransactionUpdateInput } from "@allot/contract/transactions/transaction";
import { transactions } from "@allot/db/schema/transactions";
import { eq } from "drizzle-orm";
import { currencyKeyErrors } from "../account-access/account-currency";
import type { TransactionFiles } from "../attachments/transaction-files";
import { accountTimeZone } from "../calendar/account-time-zone";
import { instantOfText } from "../calendar/instant-of-text";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { writeOwnedTransaction } from "./find-owned-transaction";
import { loadTransactionView, type TransactionRow } from "./transaction-view";

/** What PUT and PATCH may change, in the order an event lists them. */
const CHANGEABLE = ["transaction_type", "memo", "description", "image", "document"] as const;

const UNCHANGEABLE = "This field cannot be changed once the transaction exists.";

// Each comparison is "given and different"; values are compared canonically (a UUID in any case,
// the same instant in any offset or in the account's calendar, a decimal with any number of trailing
// zeros: amounts and coordinates alike, so compared exactly, not as money).
const differs = <T>(given: T | undefined, stored: T, same: (a: T, b: T) => boolean = (a, b) => a === b) =>
  given !== undefined && !same(given, stored);
const sameUuid = (a: string | null, b: string | null) => a?.toLowerCase() === b?.toLowerCase();
const sameInstant = (a: Date, b: Date) => a.getTime() === b.getTime();
const sameDecimal = (a: string | null, b: string | null) =>
  a === null || b === null ? a === b : decimal(a).eq(b);

/**
 * Every field a client may set on create except transaction_type, memo and description: each may be
 * repeated but not changed, so a changed one is refused rather than silently dropped.
 */
function unchangeableFieldErrors(
  row: TransactionRow,
  input: Omit<TransactionUpdateInput, "image" | "document">,
  timeZone: string,
) {
  const instant = (text: string | undefined) =>
    text === undefined ? undefined : instantOfText(text, timeZone);
  const changed: Record<string, boolean> = {
    bank_account: differs(input.bank_account, row.bankAccountId, sameUuid),
    amount: differs(input.amount, row.amount, sameDecimal),
    transaction_date: differs(instant(input.transaction_date), row.transactionDate, sameInstant),
    posted_date: differs(instant(input.posted_date), row.postedDate, sameInstant),
    raw_description: differs(input.raw_description, row.rawDescription),
    pending: differs(input.pending, row.pending),
    category: differs(input.category, row.categoryId, sameUuid),
    merchant_address: differs(input.merchant_address, row.merchantAddress),
    merchant_city: differs(input.merchant_city, row.merchantCity),
    merchant_region: differs(input.merchant_region, row.merchantRegion),
    merchant_country: differs(input.merchant_country, row.merchantCountry),
    merchant_latitude: differs(input.merchant_latitude, row.merchantLatitude, sameDecimal),
    merchant_longitude: differs(input.merchant_longitude, row.merchantLongitude, sameDecimal),
    bank_transaction_id: differs(input.bank_transaction_id, row.bankTransactionId),
  };
  const errors: Record<string, string[]> = {};
  for (const [field, isChanged] of Object.entries(changed)) if (isChanged) errors[field] = [UNCHANGEABLE];
  return errors;
}

/**
 * PUT and PATCH: transaction_type, memo, description and the receipt files change, nothing else
 * does. A description that differs from the stored one marks it user-edited (imports keep it then).
 * New files were staged (stored) before; this commit references them and queues the files they
 * replace or remove, which `files.settle()` removes once the commit is in.
 */
export async function updateTransaction(
  ctx: UseCaseContext<"publicBaseUrl"> & { files: TransactionFiles },
  { id, image: _image, document: _document, ...input }: RouteInput<typeof transactionRoutes.update>,
) {
  const { files } = ctx;
  return writeOwnedTransaction(ctx, id, async (tx, { account, transaction }) => {
    // The account's calendar is read only when a date is repeated, to compare it as an instant.
    const datesGiven = input.transaction_date !== undefined || input.posted_date !== undefined;
    const timeZone = datesGiven ? await accountTimeZone(tx, account.id) : "UTC";
    const errors = {
      ...unchangeableFieldErrors(transaction, input, timeZone),
      ...currencyKeyErrors(input, ["amount_currency"], account.currency),
    };
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);

    const changes: Partial<typeof transactions.$inferInsert> = {};
    if (input.transaction_type !== undefined) changes.transactionType = input.transaction_type;
    if (input.memo !== undefined) changes.memo = input.memo;
    if (input.description !== undefined && input.description !== transaction.description) {
      changes.description = input.description;
      changes.descriptionUserEdited = true;
    }
    Object.assign(changes, files.columns());
    await files.commit(
      tx,
      files.fields.map((field) => (field === "image" ? transaction.imageKey : transaction.documentKey)),
    );
    if (Object.keys(changes).length > 0)
      await tx.update(transactions).set(changes).where(eq(transactions.id, transaction.id));
    // PUT and PATCH alike; a request that changes nothing is recorded too. `changes` names the
    // changeable fields sent: the others may only repeat their stored values.
    return {
      event: {
        accountId: account.id,
        type: "transaction.updated",
        says: `updated the transaction ${changes.description ?? transaction.description}`,
        data: {
          transaction: transaction.id,
          changes: CHANGEABLE.filter((field) =>
            field === "image" || field === "document"
              ? files.fields.includes(field)
              : input[field] !== undefined,
          ),
        },
      },
      result: await loadTransactionView(tx, transaction.id, ctx.services),
    };
  });
}
