import type { banks } from "@allot/db/schema/banks";

type BankRow = typeof banks.$inferSelect;

export const toBankView = (row: BankRow) => ({
  id: row.id,
  name: row.name,
  routing_number: row.routingNumber,
  default_currency: row.defaultCurrency,
  created_at: row.createdAt.toISOString(),
  modified_at: row.modifiedAt.toISOString(),
});
