import { router } from "../../trpc/trpc";
import { loginProcedure } from "./login";

/** The auth procedures, in the contract's order. */
export const authRouter = router({
  login: loginProcedure,
});
