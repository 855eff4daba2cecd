import type { Database } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import { NotFound } from "../shared/errors";
import { toUserView } from "./user-view";

export async function getUserById(db: Database, id: number, baseUrl: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!row) throw new NotFound("No user matches the given query.");
  return toUserView(row, baseUrl);
}
