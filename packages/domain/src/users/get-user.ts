import type { RouteInput } from "@allot/contract/http/route";
import type { userRoutes } from "@allot/contract/users/routes";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import { NotFound } from "../shared/errors";
import type { PublicContext, UseCaseContext } from "../shared/use-case-context";
import { toUserView } from "./user-view";

const notFound = () => new NotFound("No user matches the given query.");

/** The caller's own user (`/users/me/`). */
export async function getMe({ db, actor, services }: UseCaseContext<"publicBaseUrl">) {
  const [row] = await db.select().from(users).where(eq(users.id, actor.userId)).limit(1);
  if (!row) throw notFound();
  return toUserView(row, services.publicBaseUrl);
}

/** Staff lookup by username (exact, as stored; the route layer has already percent-decoded it). */
export async function getUser(
  { db, services }: PublicContext<"publicBaseUrl">,
  { username }: RouteInput<typeof userRoutes.get>,
) {
  const [row] = await db.select().from(users).where(eq(users.username, username)).limit(1);
  if (!row) throw notFound();
  return toUserView(row, services.publicBaseUrl);
}
