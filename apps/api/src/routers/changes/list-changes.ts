import { listChangesRoute } from "@allot/contract/changes/routes";
import { listChanges } from "@allot/domain/changes/list-changes";
import { procedureFor } from "../../trpc/trpc";

export const listChangesProcedure = procedureFor(listChangesRoute).query(({ ctx, input }) =>
  listChanges(ctx, input, ctx.config),
);
