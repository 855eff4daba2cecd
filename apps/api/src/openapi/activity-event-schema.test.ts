import { ACTIVITY_EVENT_DATA } from "@allot/contract/activity/activity-event-data";
import { ACTIVITY_EVENT_TYPES } from "@allot/contract/activity/activity-event-types";
import { allRoutes } from "@allot/contract/routes";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi-document";

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; $ref?: string };

describe("ActivityEvent in the OpenAPI document", () => {
  const schemas = buildOpenApiDocument(allRoutes, "http://127.0.0.1:3000").components?.schemas as Record<
    string,
    Schema
  >;
  const event = schemas.ActivityEvent as Schema & {
    oneOf: { $ref: string }[];
    discriminator: { propertyName: string; mapping: Record<string, string> };
  };

  it("keeps the object it was, `data` any object, and the actor its component", () => {
    expect(event.type).toBe("object");
    expect(event.properties?.data).toMatchObject({ type: "object", additionalProperties: {} });
    expect(event.properties?.actor).toEqual({ $ref: "#/components/schemas/ActivityActor" });
    expect(schemas).not.toHaveProperty("ActivityActorOutput");
  });

  it("adds one member per event type, discriminated by type, each with its type's data schema", () => {
    expect(event.discriminator.propertyName).toBe("type");
    expect(Object.keys(event.discriminator.mapping)).toEqual([...ACTIVITY_EVENT_TYPES]);
    expect(event.oneOf.map((member) => member.$ref)).toEqual(Object.values(event.discriminator.mapping));
    for (const type of ACTIVITY_EVENT_TYPES) {
      const member = schemas[(event.discriminator.mapping[type] ?? "").split("/").pop() ?? ""];
      expect(member?.properties?.type, type).toMatchObject({ const: type });
      const id = ACTIVITY_EVENT_DATA[type].meta()?.id;
      expect(member?.properties?.data, type).toEqual({ $ref: `#/components/schemas/${id}` });
      expect(schemas[id ?? ""], type).toMatchObject({ type: "object", additionalProperties: false });
    }
  });
});
