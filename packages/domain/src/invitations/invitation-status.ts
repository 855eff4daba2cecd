import type { InvitationStatus } from "@allot/contract/invitations/invitation";

export const INVITATION_DAYS = 7;
const DAY_MS = 86_400_000;

/** When an invitation made at `createdAt` stops being usable. */
export const invitationExpiry = (createdAt: Date): Date =>
  new Date(createdAt.getTime() + INVITATION_DAYS * DAY_MS);

/**
 * The status an invitation has now: a pending one past its expiry is expired, whether or not the
 * hourly job has written that yet (so the answer never depends on when the job last ran).
 */
export function effectiveStatus(
  invitation: { status: InvitationStatus; expiresAt: Date },
  now: Date,
): InvitationStatus {
  if (invitation.status === "pending" && invitation.expiresAt.getTime() <= now.getTime()) return "expired";
  return invitation.status;
}

const CLOSED_MESSAGES: Record<Exclude<InvitationStatus, "pending">, string> = {
  accepted: "This invitation has already been accepted.",
  declined: "This invitation has already been declined.",
  cancelled: "This invitation was cancelled.",
  expired: "This invitation has expired.",
};

/**
 * Why an invitation in this status (docs/spec/api-spec.md §States) cannot be accepted, declined or
 * cancelled; null when it can: only a pending one can still move.
 */
export const closedInvitationMessage = (status: InvitationStatus): string | null =>
  status === "pending" ? null : CLOSED_MESSAGES[status];
