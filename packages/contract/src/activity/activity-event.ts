import { z } from "zod";
import { dateTimeOutput } from "../http/fields";
import { ACTIVITY_EVENT_TYPES, ACTOR_KINDS } from "./activity-event-types";

export const ActivityActorSchema = z
  .object({
    kind: z.enum(ACTOR_KINDS).meta({
      description:
        "`user` a login session, `api_key` an API key, `scheduler` the scheduled funding engine, `system` an admin command.",
      example: "api_key",
    }),
    username: z
      .string()
      .nullable()
      .meta({ description: "The user (an API key's owner); null for the scheduler." }),
    api_key: z
      .object({
        uuid: z.uuid().meta({ description: "The key's id." }),
        name: z.string().meta({ description: "The key's label." }),
        prefix: z.string().meta({ description: "The key's displayable prefix." }),
      })
      .nullable()
      .meta({ description: "The key the change was made with; null otherwise." }),
  })
  .meta({ id: "ActivityActor", description: "Who made a change." });

/** One operation on an account, as the activity trail and webhooks give it. */
export const ActivityEventSchema = z
  .object({
    id: z.uuid().meta({ description: "The event's id." }),
    type: z
      .enum(ACTIVITY_EVENT_TYPES)
      .meta({ description: "What happened, as `<object>.<what happened>`.", example: "budget.updated" }),
    occurred_at: dateTimeOutput().meta({
      description: "When it happened.",
      example: "2026-05-02T09:00:00Z",
    }),
    bank_account: z.uuid().meta({ description: "The id of the account it happened in." }),
    actor: ActivityActorSchema,
    request_id: z.string().meta({
      description: "The X-Request-Id of the request that made the change.",
      example: "req-8f2c1d7e4b",
    }),
    summary: z.string().meta({
      description: "One sentence a person can read.",
      example: "Ada changed the target of Groceries to 400.00.",
    }),
    data: z
      .record(z.string(), z.unknown())
      .meta({ description: "What the operation did, with ids; amounts are two-decimal strings." }),
  })
  .meta({
    id: "ActivityEvent",
    description: "One operation on a bank account, as the activity trail and webhooks give it.",
  });

export type ActivityEvent = z.infer<typeof ActivityEventSchema>;
