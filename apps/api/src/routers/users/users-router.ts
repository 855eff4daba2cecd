import { router } from "../../trpc/trpc";
import { getMeProcedure } from "./get-me";
import { getUserProcedure } from "./get-user";
import { listUsersProcedure } from "./list-users";
import { replaceUserProcedure } from "./replace-user";
import { updateMeProcedure } from "./update-me";
import { updateUserProcedure } from "./update-user";

/** The users procedures, in the contract's order: `/users/me/` before `/users/{username}/`. */
export const usersRouter = router({
  getMe: getMeProcedure,
  updateMe: updateMeProcedure,
  list: listUsersProcedure,
  get: getUserProcedure,
  replace: replaceUserProcedure,
  update: updateUserProcedure,
});
