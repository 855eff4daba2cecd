import type { InvitationStatus } from "@allot/contract/invitations/invitation";
import type { Database, Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { invitations } from "@allot/db/schema/invitations";
import { users } from "@allot/db/schema/users";
import { asc, eq, type SQL } from "drizzle-orm";

/** The wire BankAccountInvitation. */
export interface InvitationView {
  id: string;
  token: string;
  bank_account_id: string;
  bank_account_name: string;
  invitee_email: string;
  invited_by: string;
  status: InvitationStatus;
  expires_at: string;
  accepted_at: string | null;
  declined_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  modified_at: string;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Invitations matching the condition as the wire shape, oldest first. */
export async function loadInvitationViews(
  db: Database | Tx,
  condition: SQL | undefined,
): Promise<InvitationView[]> {
  const rows = await db
    .select({ invitation: invitations, accountName: bankAccounts.name, inviterEmail: users.email })
    .from(invitations)
    .innerJoin(bankAccounts, eq(bankAccounts.id, invitations.bankAccountId))
    .innerJoin(users, eq(users.id, invitations.inviterId))
    .where(condition)
    .orderBy(asc(invitations.createdAt), asc(invitations.id));
  return rows.map(({ invitation: row, accountName, inviterEmail }) => ({
    id: row.id,
    token: row.token,
    bank_account_id: row.bankAccountId,
    bank_account_name: accountName,
    invitee_email: row.inviteeEmail,
    invited_by: inviterEmail,
    status: row.status,
    expires_at: row.expiresAt.toISOString(),
    accepted_at: iso(row.acceptedAt),
    declined_at: iso(row.declinedAt),
    cancelled_at: iso(row.cancelledAt),
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt.toISOString(),
  }));
}
