import type { Database } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import { NotFound } from "../shared/errors";
import { toUserView } from "./user-view";

const notFound = () => new NotFound("No user matches the given query.");

export async function getUserById(db: Database, id: number, baseUrl: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!row) throw notFound();
  return toUserView(row, baseUrl);
}

/** Staff lookup by username (exact, as stored; the route layer has already percent-decoded it). */
export async function getUserByUsername(db: Database, username: string, baseUrl: string) {
  const [row] = await db.select().from(users).where(eq(users.username, username)).limit(1);
  if (!row) throw notFound();
  return toUserView(row, baseUrl);
}
