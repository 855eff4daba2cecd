/** The confirm link (to the new address) lasts this long. */
export const EMAIL_CHANGE_CONFIRM_HOURS = 24;
/** After confirmation, the old address's revoke link keeps working this long. */
export const EMAIL_CHANGE_REVOCATION_DAYS = 7;

const DAY_MS = 86_400_000;

/** The moment a confirmed change can no longer be revoked. */
export const revocationEndsAt = (confirmedAt: Date) =>
  new Date(confirmedAt.getTime() + EMAIL_CHANGE_REVOCATION_DAYS * DAY_MS);

/** Confirmed changes from after this moment still have their revocation window open. */
export const revocationWindowStart = (now: Date) =>
  new Date(now.getTime() - EMAIL_CHANGE_REVOCATION_DAYS * DAY_MS);

/**
 * The username after the email moves from one address to another: a username that was the old
 * address (lower-cased, as admin-made and invited users get) follows the email, so the old address
 * is free for a new placeholder user; any other username stays.
 */
export function usernameAfterEmailChange(username: string, fromEmail: string, toEmail: string): string {
  return username === fromEmail.toLowerCase() ? toEmail.toLowerCase() : username;
}
