import type { Database } from "@allot/db/create-database";
import type { Actor } from "../shared/actor";
import { loadBankAccountView } from "./bank-account-view";
import { findOwnedAccount } from "./find-owned-account";

export async function getBankAccount(db: Database, actor: Actor, id: string) {
  return loadBankAccountView(db, await findOwnedAccount(db, actor, id));
}
