import type { Tx } from "@allot/db/create-database";
import { bankAccounts } from "@allot/db/schema/bank-accounts";
import { eq } from "drizzle-orm";
import { notifyUser } from "../notifications/record-notification";
import type { InvitationRow } from "./act-on-invitation";

/** Tells the inviter their invitation was answered, in the answering transaction. */
export async function notifyInviter(
  tx: Tx,
  invitation: InvitationRow,
  kind: "invitation_accepted" | "invitation_declined",
) {
  const [account] = await tx
    .select({ name: bankAccounts.name })
    .from(bankAccounts)
    .where(eq(bankAccounts.id, invitation.bankAccountId));
  await notifyUser(
    tx,
    invitation.inviterId,
    kind,
    {
      invitation: invitation.id,
      invitee_email: invitation.inviteeEmail,
      bank_account_name: account?.name ?? "",
    },
    invitation.bankAccountId,
  );
}
