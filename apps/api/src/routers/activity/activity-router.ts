import { router } from "../../trpc/trpc";
import { listActivityProcedure } from "./list-activity";

/** The activity trail: read-only (every mutating use case writes it). */
export const activityRouter = router({ list: listActivityProcedure });
