/** At most this many invitations to one address for one account in the rolling window. */
export const INVITATION_LIMIT = 5;
export const INVITATION_WINDOW_DAYS = 30;
const WINDOW_MS = INVITATION_WINDOW_DAYS * 86_400_000;

/**
 * Seconds until one more invitation to the address may be sent for the account, or null when it
 * may be sent now. `sentAt` are the creation times of that account's invitations to that address
 * (any status: a cancelled or declined one still counts, or cancelling would reset the limit).
 * The wait ends when enough of those in the window have aged out of it to leave room for one more.
 */
export function invitationLimitRetryAfter(sentAt: readonly Date[], now: Date): number | null {
  const windowStart = now.getTime() - WINDOW_MS;
  const inWindow = sentAt
    .map((date) => date.getTime())
    .filter((time) => time > windowStart)
    .sort((a, b) => a - b);
  if (inWindow.length < INVITATION_LIMIT) return null;
  // Once this one leaves the window, INVITATION_LIMIT - 1 remain and one more fits.
  const leaving = inWindow[inWindow.length - INVITATION_LIMIT] as number;
  return Math.max(1, Math.ceil((leaving + WINDOW_MS - now.getTime()) / 1000));
}
