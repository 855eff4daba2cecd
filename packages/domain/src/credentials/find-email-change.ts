import type { Tx } from "@allot/db/create-database";
import { emailChanges } from "@allot/db/schema/credential-tokens";
import { eq } from "drizzle-orm";
import { sha256 } from "../auth/token-digest";
import { NotFound } from "../shared/errors";

export const EMAIL_CHANGE_LINK_NOT_FOUND = "This email-change link is not valid.";

/** The email change of a confirm or revoke token, locked; an unknown token is 404. */
export async function lockEmailChangeByToken(tx: Tx, link: "confirm" | "revoke", token: string) {
  const column = link === "confirm" ? emailChanges.confirmTokenDigest : emailChanges.revokeTokenDigest;
  const [change] = await tx
    .select()
    .from(emailChanges)
    .where(eq(column, sha256(token)))
    .for("update")
    .limit(1);
  if (!change) throw new NotFound(EMAIL_CHANGE_LINK_NOT_FOUND);
  return change;
}
