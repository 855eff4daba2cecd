import { formatMoney } from "@allot/contract/money";
import type { TransactionView } from "@allot/contract/transactions/transaction";
import type { Database, Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { transactionCategories } from "@allot/db/schema/transaction-categories";
import { transactions } from "@allot/db/schema/transactions";
import { eq, getTableColumns, inArray, sql } from "drizzle-orm";
import { loadAllocationsOf } from "../allocations/allocation-view";
import { type AttachmentLinks, attachmentUrl } from "../attachments/attachment-links";
import { formatFullName } from "../categories/visible-categories";

export type TransactionRow = typeof transactions.$inferSelect;

// The raw details record can be large and is not part of the view: only whether it is there. Of
// the receipt files, the view needs only whether each is there and the image's size.
const {
  details: _details,
  imageKey: _imageKey,
  imageName: _imageName,
  imageContentType: _imageContentType,
  imageSize: _imageSize,
  documentKey: _documentKey,
  documentName: _documentName,
  documentContentType: _documentContentType,
  documentSize: _documentSize,
  ...viewedColumns
} = getTableColumns(transactions);

/** A transaction with what its view needs from its category and its account. */
const transactionViewColumns = {
  ...viewedColumns,
  hasDetails: sql<boolean>`(${transactions.details} is not null)`,
  hasImage: sql<boolean>`(${transactions.imageKey} is not null)`,
  hasDocument: sql<boolean>`(${transactions.documentKey} is not null)`,
  categoryGroup: transactionCategories.group,
  categoryName: transactionCategories.name,
  currency: bankAccounts.currency,
};

/** Transactions joined with their category and account, ready for `.where(...)`. */
export const selectTransactionViews = (db: Database | Tx) =>
  db
    .select(transactionViewColumns)
    .from(transactions)
    .innerJoin(bankAccounts, eq(bankAccounts.id, transactions.bankAccountId))
    .leftJoin(transactionCategories, eq(transactionCategories.id, transactions.categoryId))
    .$dynamic();

type TransactionViewRow = Awaited<ReturnType<ReturnType<typeof selectTransactionViews>["execute"]>>[number];

const decimalOrNull = (value: string | null) => (value === null ? null : value);

function toTransactionView(
  row: TransactionViewRow,
  allocations: TransactionView["allocations"],
  links: AttachmentLinks,
): TransactionView {
  return {
    id: row.id,
    bank_account: row.bankAccountId,
    amount: formatMoney(row.amount),
    amount_currency: row.currency,
    party: row.party,
    posted_date: row.postedDate.toISOString(),
    transaction_date: row.transactionDate.toISOString(),
    transaction_type: row.transactionType,
    pending: row.pending,
    memo: row.memo,
    raw_description: row.rawDescription,
    description: row.description,
    description_user_edited: row.descriptionUserEdited,
    category: row.categoryId,
    category_full_name:
      row.categoryGroup !== null && row.categoryName !== null
        ? formatFullName(row.categoryGroup, row.categoryName)
        : null,
    merchant_name: row.merchantName,
    merchant_intermediary: row.merchantIntermediary,
    merchant_address: row.merchantAddress,
    merchant_city: row.merchantCity,
    merchant_region: row.merchantRegion,
    merchant_country: row.merchantCountry,
    merchant_latitude: decimalOrNull(row.merchantLatitude),
    merchant_longitude: decimalOrNull(row.merchantLongitude),
    merchant_category: row.merchantCategory,
    merchant_category_code: row.merchantCategoryCode,
    virtual_card_number: row.virtualCardNumber,
    has_details: Boolean(row.hasDetails),
    allocations,
    bank_transaction_id: row.bankTransactionId,
    linked_transaction: row.linkedTransactionId,
    bank_account_posted_balance: formatMoney(row.postedBalanceSnapshot),
    bank_account_posted_balance_currency: row.currency,
    bank_account_available_balance: formatMoney(row.availableBalanceSnapshot),
    bank_account_available_balance_currency: row.currency,
    image: row.hasImage ? attachmentUrl(links, row.id, "image") : null,
    image_width: row.imageWidth,
    image_height: row.imageHeight,
    document: row.hasDocument ? attachmentUrl(links, row.id, "document") : null,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt.toISOString(),
  };
}

/** Views of a page of rows, keeping their order: the allocations of all of them in one query. */
export async function toTransactionViews(
  db: Database | Tx,
  rows: TransactionViewRow[],
  links: AttachmentLinks,
) {
  const allocations = await loadAllocationsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toTransactionView(row, allocations.get(row.id) ?? [], links));
}

/** The view of one transaction by id (the caller has checked access). */
export async function loadTransactionView(
  db: Database | Tx,
  id: string,
  links: AttachmentLinks,
): Promise<TransactionView> {
  const rows = await selectTransactionViews(db).where(inArray(transactions.id, [id]));
  const [view] = await toTransactionViews(db, rows, links);
  if (!view) throw new Error("transaction view missing");
  return view;
}
