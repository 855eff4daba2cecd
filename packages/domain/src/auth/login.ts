import type { authRoutes } from "@allot/contract/auth/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { users } from "@allot/db/schema/users";
import { sql } from "drizzle-orm";
import { Unauthenticated } from "../shared/errors";
import type { PublicContext } from "../shared/use-case-context";
import { verifyPassword } from "./passwords";
import { type IssuedCredentials, startSession } from "./sessions";

const LOGIN_FAILED = "No active account found with the given credentials.";

/** Email and password in, a new session's credentials out. Inactive users cannot log in. */
export async function login(
  { db, now, services }: PublicContext<"tokens">,
  input: RouteInput<typeof authRoutes.login>,
): Promise<IssuedCredentials> {
  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash, isActive: users.isActive })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${input.email.trim()}) and ${users.email} <> ''`)
    .limit(1);
  const valid = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !valid || !user.isActive) throw new Unauthenticated(LOGIN_FAILED, "authentication_failed");
  // One transaction, so the clean-up job never sees the session without its refresh token.
  return db.transaction((tx) => startSession(tx, services.tokens, user.id, now));
}
