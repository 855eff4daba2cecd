import { testVault } from "./test-vault";

/**
 * An email_outbox row with its bodies opened, as the sender opens them (they are sealed at rest,
 * decision 0049): for tests that read a queued message straight from the table.
 */
export function openedOutboxRow<Row extends { textBody: string | null; htmlBody: string | null }>(
  row: Row,
): Row {
  const open = (stored: string | null) => (stored === null ? null : testVault.open("email-body", stored));
  return { ...row, textBody: open(row.textBody), htmlBody: open(row.htmlBody) };
}
