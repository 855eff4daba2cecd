import { router } from "../../trpc/trpc";

/** The api-keys procedures, in the contract's order. */
export const apiKeysRouter = router({});
