import { router } from "../../trpc/trpc";

/** The currencies procedures, in the contract's order. */
export const currenciesRouter = router({});
