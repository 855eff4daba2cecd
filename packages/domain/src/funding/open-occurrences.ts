import type { Tx } from "@allot/db/create-database";
import { fundingOccurrences } from "@allot/db/schema/funding-occurrences";
import { and, eq } from "drizzle-orm";
import { type OpenOccurrence, toOpenOccurrence } from "./funding-plan";

/** The account's PARTIAL fund occurrences, which the next run tops up first. */
export async function readOpenOccurrences(tx: Tx, accountId: string): Promise<OpenOccurrence[]> {
  const rows = await tx
    .select({
      id: fundingOccurrences.id,
      budgetId: fundingOccurrences.budgetId,
      scheduledDate: fundingOccurrences.scheduledDate,
      amount: fundingOccurrences.amount,
      movedAmount: fundingOccurrences.movedAmount,
    })
    .from(fundingOccurrences)
    .where(and(eq(fundingOccurrences.bankAccountId, accountId), eq(fundingOccurrences.status, "PARTIAL")));
  return rows.map(toOpenOccurrence);
}
