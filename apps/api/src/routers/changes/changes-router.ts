import { changeRoutes } from "@allot/contract/changes/routes";
import { listChanges } from "@allot/domain/changes/list-changes";
import { bindRoutes } from "../../trpc/bind-routes";

/** The change feed: read-only (every write numbers what it changes; docs/decisions/0035). */
export const changesRouter = bindRoutes(changeRoutes, {
  list: listChanges,
});
