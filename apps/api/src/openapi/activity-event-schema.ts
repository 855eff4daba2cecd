import { ActivityEventFieldsSchema } from "@allot/contract/activity/activity-event";
import type { OpenAPIObject } from "trpc-to-openapi";
import { z } from "zod";

/*
 * The contract's ActivityEvent is a union on `type`, one member per event type with its `data`
 * schema (decision 0064). trpc-to-openapi renders it as that union alone; the document keeps
 * ActivityEvent as it always was (every field, `data` any object) and adds the union beside the
 * fields: `oneOf` the members (`BudgetCreatedEvent`, …, each `data` a `…EventData` component) and a
 * `discriminator` on `type`. A client generated from the earlier document reads the same object;
 * one generated from this document narrows `data` on `type`.
 */

/**
 * The fields, rendered by zod as the generator renders them (output, JSON Schema 2020-12), their
 * components referred to where the document keeps them. Not through the generator's `defs`: it
 * renders those as request schemas too, and ActivityActor would become ActivityActorOutput.
 */
function renderedFields() {
  const { $schema, $defs, ...fields } = z.toJSONSchema(ActivityEventFieldsSchema, {
    target: "draft-2020-12",
    io: "output",
  });
  return JSON.parse(JSON.stringify(fields).replaceAll('"#/$defs/', '"#/components/schemas/'));
}

/** ActivityEvent becomes the fields, with the union's `oneOf` and `discriminator` added. */
export function addActivityEventUnion(document: OpenAPIObject) {
  const schemas = document.components?.schemas ?? {};
  const union = schemas.ActivityEvent as { oneOf?: unknown[]; discriminator?: unknown } | undefined;
  if (!union?.oneOf || !union.discriminator)
    throw new Error("The OpenAPI document lacks the activity event's union");
  schemas.ActivityEvent = { ...renderedFields(), oneOf: union.oneOf, discriminator: union.discriminator };
}
