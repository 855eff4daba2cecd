import { z } from "zod";
import { choiceListField, dateTimeFilter, pageQuery, paginated, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { ActivityEventSchema } from "./activity-event";
import { ACTIVITY_EVENT_TYPES } from "./activity-event-types";

const tags = ["activity"];

export const listActivityRoute = defineRoute({
  method: "GET",
  path: "/v1/bank-accounts/{id}/activity/",
  status: 200,
  summary: "Who changed what in a bank account, newest first",
  tags,
  access: "user",
  input: z.object({
    id: uuidField(),
    type: choiceListField(ACTIVITY_EVENT_TYPES)
      .optional()
      .meta({ description: "Repeatable (`?type=budget.created&type=budget.updated`): any of them." }),
    actor: z.string().max(150).optional().meta({ description: "Only the changes of this username." }),
    occurred_after: dateTimeFilter("Events at or after this instant."),
    occurred_before: dateTimeFilter("Events at or before this instant."),
    ...pageQuery,
  }),
  output: paginated(ActivityEventSchema),
});
