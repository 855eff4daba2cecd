import type { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { findOwnedAccount } from "../account-access/find-owned-account";
import type { UseCaseContext } from "../shared/use-case-context";
import { loadBankAccountView } from "./bank-account-view";

export async function getBankAccount(
  { db, actor }: UseCaseContext,
  { id }: RouteInput<typeof bankAccountRoutes.get>,
) {
  return loadBankAccountView(db, await findOwnedAccount(db, actor, id));
}
