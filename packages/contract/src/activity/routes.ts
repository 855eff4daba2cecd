import { z } from "zod";
import { choiceListField, dateTimeFilter, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { ActivityEventSchema } from "./activity-event";
import { ACTIVITY_EVENT_TYPES } from "./activity-event-types";

const tags = ["activity"];

/** The activity routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const activityRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/bank-accounts/{id}/activity/",
    status: 200,
    summary: "Who changed what in a bank account, newest first",
    description:
      "The account's audit trail, newest first: each event names its type, the object, the actor and what changed. Filter by event type, actor and time.",
    tags,
    access: "user",
    input: z.object({
      id: uuidField().meta({ description: "The bank account's id." }),
      type: choiceListField(ACTIVITY_EVENT_TYPES)
        .meta({ description: "Repeatable (`?type=budget.created&type=budget.updated`): any of them." })
        .optional(),
      actor: z.string().max(150).meta({ description: "Only the changes of this username." }).optional(),
      occurred_after: dateTimeFilter("Events at or after this instant."),
      occurred_before: dateTimeFilter("Events at or before this instant."),
      ...pageQuery,
    }),
    output: paginated(ActivityEventSchema),
  }),
};
