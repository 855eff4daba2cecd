import { router } from "../../trpc/trpc";
import { getMeProcedure } from "./get-me";

/** The users procedures, in the contract's order: `/users/me/` before `/users/{username}/`. */
export const usersRouter = router({
  getMe: getMeProcedure,
});
