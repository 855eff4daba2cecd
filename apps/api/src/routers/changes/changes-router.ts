import { router } from "../../trpc/trpc";
import { listChangesProcedure } from "./list-changes";

/** The change feed: read-only (every write numbers what it changes; docs/decisions/0035). */
export const changesRouter = router({ list: listChangesProcedure });
