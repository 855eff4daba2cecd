import type { RouteInput } from "@allot/contract/http/route";
import type { invitationRoutes } from "@allot/contract/invitations/routes";
import { invitations } from "@allot/db/schema/invitations";
import { and, eq } from "drizzle-orm";
import { findOwnedAccount } from "../account-access/find-owned-account";
import type { UseCaseContext } from "../shared/use-case-context";
import { stillPending } from "./expire-invitations";
import { loadInvitationViews } from "./invitation-view";

/**
 * The account's pending invitations, whoever of its owners sent them. One past its expiry is
 * left out even before the hourly job marks it expired.
 */
export async function listAccountInvitations(
  { db, actor, now }: UseCaseContext,
  { id: accountId }: RouteInput<typeof invitationRoutes.listForAccount>,
) {
  const account = await findOwnedAccount(db, actor, accountId);
  return loadInvitationViews(db, and(eq(invitations.bankAccountId, account.id), stillPending(now)));
}
