import { z } from "zod";
import { dateTimeOutput } from "../http/fields";
import { ACTIVITY_EVENT_DATA } from "./activity-event-data";
import { ACTIVITY_EVENT_TYPES, ACTOR_KINDS, type ActivityEventType } from "./activity-event-types";

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

const DESCRIPTION = "One operation on a bank account, as the activity trail and webhooks give it.";

/**
 * Every event's fields, `data` any object: the shape the OpenAPI document has always shown as
 * ActivityEvent (apps/api/src/openapi adds the typed members beside it).
 */
export const ActivityEventFieldsSchema = z
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
  .meta({ description: DESCRIPTION });

/** `budget.created` → `BudgetCreated`: the stem of a type's names in the OpenAPI document. */
const typeStem = (type: string) =>
  type.replace(/(?:^|[._])([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The event of one type: the common fields, `type` that type and `data` its schema. */
const eventOf = <T extends ActivityEventType>(type: T) =>
  ActivityEventFieldsSchema.extend({
    type: z.literal(type).meta({ description: "What happened, as `<object>.<what happened>`." }),
    data: ACTIVITY_EVENT_DATA[type],
  }).meta({
    id: `${typeStem(type)}Event`,
    description: `A \`${type}\` event.`,
  });

type ActivityEventSchemas = { [T in ActivityEventType]: ReturnType<typeof eventOf<T>> };

/** Each type's event schema, by type. */
export const ACTIVITY_EVENT_SCHEMAS = Object.fromEntries(
  ACTIVITY_EVENT_TYPES.map((type) => [type, eventOf(type)]),
) as ActivityEventSchemas;

type AnyActivityEventSchema = ActivityEventSchemas[ActivityEventType];

/** One operation on an account, as the activity trail and webhooks give it: `data` typed by `type`. */
export const ActivityEventSchema = z
  .discriminatedUnion(
    "type",
    ACTIVITY_EVENT_TYPES.map((type) => ACTIVITY_EVENT_SCHEMAS[type]) as [
      AnyActivityEventSchema,
      ...AnyActivityEventSchema[],
    ],
  )
  .meta({ id: "ActivityEvent", description: DESCRIPTION });

/** An event of type `T` (of any type, without one: narrow it on `type`). */
export type ActivityEvent<T extends ActivityEventType = ActivityEventType> = z.output<
  ActivityEventSchemas[T]
>;
