import type { Database } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { setupTokens } from "@allot/db/schema/setup-tokens";
import { users } from "@allot/db/schema/users";
import { sql } from "drizzle-orm";
import { sha256 } from "../auth/token-digest";
import { Gone, NotFound } from "../shared/errors";

/**
 * Refuses a first-run token that cannot create the first user: Gone once any user exists (however
 * it was made), NotFound for a token no start issued or a later start replaced.
 */
export async function checkSetupToken(db: Database, token: string): Promise<void> {
  const [state] = rowsOf<{ set_up: boolean; issued: boolean }>(
    await db.execute(sql`select
      exists (select 1 from ${users}) as set_up,
      exists (select 1 from ${setupTokens} where ${setupTokens.tokenDigest} = ${sha256(token)}) as issued`),
  );
  if (state?.set_up)
    throw new Gone(
      "This first-run link worked only until the first user existed, and Allot has users now.",
      "already_set_up",
    );
  if (!state?.issued) throw new NotFound("This first-run link is not valid.");
}
