import { userRoutes } from "@allot/contract/users/routes";
import { getMe, getUser } from "@allot/domain/users/get-user";
import { listUsers } from "@allot/domain/users/list-users";
import { updateMe, updateUser } from "@allot/domain/users/update-user";
import { bindRoutes, paged } from "../../trpc/bind-routes";

/** The users routes, each bound to its use case, in the contract's order: `/users/me/` first. */
export const usersRouter = bindRoutes(userRoutes, {
  getMe,
  updateMe,
  list: paged(listUsers),
  get: getUser,
  replace: updateUser,
  update: updateUser,
});
