import type { Tx } from "@allot/db/create-database";
import { sql } from "drizzle-orm";
import type { AllocationRow } from "../allocations/allocation-view";
import { stampedSet, stampTransactionsOf } from "../ledger/change-number";
import type { TransactionRow } from "../transactions/transaction-view";

// Rows per statement: a few thousand enriched rows are a handful of round trips, and no single
// parameter grows past a few megabytes.
const CHUNK = 500;

function* chunks<T>(items: T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += CHUNK) yield items.slice(start, start + CHUNK);
}

/**
 * Stores enriched transactions' new state, many rows a statement: the values travel as one JSON
 * parameter unpacked by jsonb_to_recordset, so `details` lands in its jsonb column as the same
 * JSON value the client sent.
 */
export async function writeEnrichedTransactions(tx: Tx, rows: TransactionRow[]) {
  for (const chunk of chunks(rows)) {
    const values = JSON.stringify(
      chunk.map((row) => ({
        id: row.id,
        details: row.details,
        description: row.description,
        category_id: row.categoryId,
        merchant_name: row.merchantName,
        merchant_city: row.merchantCity,
        merchant_region: row.merchantRegion,
        merchant_country: row.merchantCountry,
        merchant_category: row.merchantCategory,
        merchant_category_code: row.merchantCategoryCode,
        virtual_card_number: row.virtualCardNumber,
      })),
    );
    await tx.execute(sql`
      update transactions t
      set ${stampedSet(
        sql`details = v.details, description = v.description, category_id = v.category_id`,
        sql`merchant_name = v.merchant_name, merchant_city = v.merchant_city`,
        sql`merchant_region = v.merchant_region, merchant_country = v.merchant_country`,
        sql`merchant_category = v.merchant_category, merchant_category_code = v.merchant_category_code`,
        sql`virtual_card_number = v.virtual_card_number, modified_at = now()`,
      )}
      from jsonb_to_recordset(${values}::jsonb) as v(
        id uuid, details jsonb, description text, category_id uuid, merchant_name text,
        merchant_city text, merchant_region text, merchant_country text, merchant_category text,
        merchant_category_code text, virtual_card_number text)
      where t.id = v.id`);
  }
}

/** Stores allocations' new budget and category, many rows a statement. */
export async function writeAllocations(tx: Tx, rows: AllocationRow[]) {
  for (const chunk of chunks(rows)) {
    const values = JSON.stringify(
      chunk.map((row) => ({ id: row.id, budget_id: row.budgetId, category_id: row.categoryId })),
    );
    await tx.execute(sql`
      with changed as (
        update transaction_allocations a
        set ${stampedSet(sql`budget_id = v.budget_id, category_id = v.category_id, modified_at = now()`)}
        from jsonb_to_recordset(${values}::jsonb) as v(id uuid, budget_id uuid, category_id uuid)
        where a.id = v.id
        returning a.transaction_id
      )
      ${stampTransactionsOf(sql`changed`)}`);
  }
}
