import { activityRoutes } from "@allot/contract/activity/routes";
import { listActivity } from "@allot/domain/activity/list-activity";
import { bindRoutes, paged } from "../../trpc/bind-routes";

/** The activity trail: read-only (every mutating use case writes it). */
export const activityRouter = bindRoutes(activityRoutes, {
  list: paged(listActivity),
});
