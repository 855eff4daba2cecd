import { z } from "zod";
import { dateTimeOutput } from "../http/fields";
import { ACTIVITY_EVENT_TYPES, ACTOR_KINDS } from "./activity-event-types";

export const ActivityActorSchema = z
  .object({
    kind: z.enum(ACTOR_KINDS),
    username: z
      .string()
      .nullable()
      .meta({ description: "The user (an API key's owner); null for the scheduler." }),
    api_key: z
      .object({ uuid: z.uuid(), name: z.string(), prefix: z.string() })
      .nullable()
      .meta({ description: "The key the change was made with; null otherwise." }),
  })
  .meta({ id: "ActivityActor" });

/** One operation on an account, as the activity trail and webhooks give it. */
export const ActivityEventSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(ACTIVITY_EVENT_TYPES),
    occurred_at: dateTimeOutput(),
    bank_account: z.uuid(),
    actor: ActivityActorSchema,
    request_id: z.string().meta({ description: "The X-Request-Id of the request that made the change." }),
    summary: z.string().meta({ description: "One sentence a person can read." }),
    data: z
      .record(z.string(), z.unknown())
      .meta({ description: "What the operation did, with ids; amounts are two-decimal strings." }),
  })
  .meta({ id: "ActivityEvent" });

export type ActivityEvent = z.infer<typeof ActivityEventSchema>;
