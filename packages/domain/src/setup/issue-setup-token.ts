import type { Database } from "@allot/db/create-database";
import { setupTokens } from "@allot/db/schema/setup-tokens";
import { users } from "@allot/db/schema/users";
import { randomToken, sha256 } from "../auth/token-digest";

/** The first-run page's address, as the server prints it. */
export const setupLink = (publicBaseUrl: string, token: string) =>
  `${publicBaseUrl.replace(/\/+$/, "")}/links/setup/${token}`;

/**
 * Called by the server as it starts. While no user exists: a fresh first-run token, its digest
 * stored in place of those earlier starts issued, so the newest link printed is the one that
 * works. Once a user exists: null, and no token is kept.
 */
export async function issueSetupToken(db: Database): Promise<string | null> {
  return db.transaction(async (tx) => {
    await tx.delete(setupTokens);
    const [anyone] = await tx.select({ id: users.id }).from(users).limit(1);
    if (anyone) return null;
    const token = randomToken();
    await tx.insert(setupTokens).values({ tokenDigest: sha256(token) });
    return token;
  });
}
