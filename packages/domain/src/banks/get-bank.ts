import type { Database } from "@allot/db/create-database";
import { banks } from "@allot/db/schema/banks";
import { eq } from "drizzle-orm";
import { NotFound } from "../shared/errors";
import { toBankView } from "./bank-view";

export async function getBank(db: Database, id: string) {
  const [row] = await db.select().from(banks).where(eq(banks.id, id)).limit(1);
  if (!row) throw new NotFound("No bank matches the given id.");
  return toBankView(row);
}
