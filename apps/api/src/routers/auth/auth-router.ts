import { router } from "../../trpc/trpc";
import { loginProcedure } from "./login";
import { logoutProcedure } from "./logout";
import { refreshProcedure } from "./refresh";

/** The auth procedures, in the contract's order. */
export const authRouter = router({
  login: loginProcedure,
  refresh: refreshProcedure,
  logout: logoutProcedure,
});
