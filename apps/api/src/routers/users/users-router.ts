import { userRoutes } from "@allot/contract/users/routes";
import { getMe, getUser } from "@allot/domain/users/get-user";
import { listUsers } from "@allot/domain/users/list-users";
import { updateMe, updateUser } from "@allot/domain/users/update-user";
import { bindRoutes, paged, withServices } from "../../trpc/bind-routes";
import { publicUrl } from "../use-case-services";

/** The users routes, each bound to its use case, in the contract's order: `/users/me/` first. */
export const usersRouter = bindRoutes(userRoutes, {
  getMe: (ctx) => getMe(ctx, publicUrl(ctx)),
  updateMe: withServices(updateMe, publicUrl),
  list: paged(withServices(listUsers, publicUrl)),
  get: withServices(getUser, publicUrl),
  replace: withServices(updateUser, publicUrl),
  update: withServices(updateUser, publicUrl),
});
