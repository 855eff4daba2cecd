import { router } from "../../trpc/trpc";

/** The bank-accounts procedures, in the contract's order. */
export const bankAccountsRouter = router({});
