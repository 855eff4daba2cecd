import { ActivityEventFieldsSchema } from "@allot/contract/activity/activity-event";
import type { OpenAPIObject } from "trpc-to-openapi";

/*
 * The contract's ActivityEvent is a union on `type`, one member per event type with its `data`
 * schema (decision 0064). trpc-to-openapi renders it as that union alone; the document keeps
 * ActivityEvent as it always was (every field, `data` any object) and adds the union beside the
 * fields: `oneOf` the members (`BudgetCreatedEvent`, …, each `data` a `…EventData` component) and a
 * `discriminator` on `type`. A client generated from the earlier document reads the same object;
 * one generated from this document narrows `data` on `type`.
 */

/** Where the generator renders the fields alone; nothing refers to it, so the document drops it. */
const FIELDS = "ActivityEventFields";

/** For generateOpenApiDocument's `defs`: the fields, rendered as the other components are. */
export const ACTIVITY_EVENT_FIELDS_DEF = { [FIELDS]: ActivityEventFieldsSchema };

/** ActivityEvent becomes the fields, with the union's `oneOf` and `discriminator` added. */
export function addActivityEventUnion(document: OpenAPIObject) {
  const schemas = document.components?.schemas ?? {};
  const fields = schemas[FIELDS];
  const union = schemas.ActivityEvent as { oneOf?: unknown[]; discriminator?: unknown } | undefined;
  if (!fields || !union?.oneOf || !union.discriminator)
    throw new Error("The OpenAPI document lacks the activity event's fields or its union");
  schemas.ActivityEvent = {
    ...fields,
    oneOf: union.oneOf,
    discriminator: union.discriminator,
  } as typeof fields;
}
