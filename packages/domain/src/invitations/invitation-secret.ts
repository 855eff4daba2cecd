import { randomBytes } from "node:crypto";
import { invitations } from "@allot/db/schema/invitations";
import { eq, type SQL } from "drizzle-orm";
import { randomToken, sha256 } from "../auth/token-digest";

/**
 * The invitee's credential: mailed once, in the invitation's link, and stored only as its digest.
 * It is never the `token` the account's owners see (their handle for cancelling), so no co-owner,
 * the inviter included, can read, accept or decline an invitation in the invitee's place.
 */
export function newInvitationSecret() {
  const secret = randomToken();
  return { secret, digest: sha256(secret) };
}

/**
 * The owners' handle (the listed `token`): hex, so that it never starts with "-" and is read as an
 * option when pasted into `allot invitations cancel TOKEN` (base64url did, one time in 64).
 */
export const newInvitationHandle = () => randomBytes(32).toString("hex");

/** Condition on `invitations`: the one whose mailed secret this is (never matches a handle). */
export const bySecret = (secret: string): SQL => eq(invitations.secretDigest, sha256(secret));
