import type { bankRoutes } from "@allot/contract/banks/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { banks } from "@allot/db/schema/banks";
import { eq } from "drizzle-orm";
import { NotFound } from "../shared/errors";
import type { PublicContext } from "../shared/use-case-context";
import { toBankView } from "./bank-view";

export async function getBank({ db }: PublicContext, { id }: RouteInput<typeof bankRoutes.get>) {
  const [row] = await db.select().from(banks).where(eq(banks.id, id)).limit(1);
  if (!row) throw new NotFound("No bank matches the given id.");
  return toBankView(row);
}
