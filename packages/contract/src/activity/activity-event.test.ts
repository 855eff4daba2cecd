import { describe, expect, it } from "vitest";
import { ACTIVITY_EVENT_SCHEMAS, ActivityEventSchema } from "./activity-event";
import { ACTIVITY_EVENT_DATA, MAX_IDS_IN_EVENT } from "./activity-event-data";
import { ACTIVITY_EVENT_TYPES } from "./activity-event-types";

const event = {
  id: "0b6f3f4e-8a4c-4c1e-9d55-2f0c3a9e7b10",
  type: "invitation.declined",
  occurred_at: "2026-03-10T09:41:00.000Z",
  bank_account: "7c4e2b19-5a3d-4f8e-a6b1-9d0c3e2f4a58",
  actor: { kind: "user", username: "grace", api_key: null },
  request_id: "req-1",
  summary: "grace declined the invitation to co-own the account",
  data: { invitation: "1c3e5a7b-9d2f-4b6c-8e0a-2c4e6f8a0b2d", invitee_email: "grace@example.com" },
};

describe("the activity events' data schemas", () => {
  it("give every event type of the list exactly one data schema and one event schema", () => {
    expect(Object.keys(ACTIVITY_EVENT_DATA)).toEqual([...ACTIVITY_EVENT_TYPES]);
    expect(Object.keys(ACTIVITY_EVENT_SCHEMAS)).toEqual([...ACTIVITY_EVENT_TYPES]);
    expect(ActivityEventSchema.options).toHaveLength(ACTIVITY_EVENT_TYPES.length);
    for (const type of ACTIVITY_EVENT_TYPES)
      expect(ACTIVITY_EVENT_SCHEMAS[type].shape.data, type).toBe(ACTIVITY_EVENT_DATA[type]);
  });

  it("parse an event by its type's data: nothing else, nothing missing, nothing left out", () => {
    expect(ActivityEventSchema.parse(event)).toEqual(event);
    // The data of another type, a field missing, an unknown field: refused or stripped.
    expect(ActivityEventSchema.safeParse({ ...event, type: "budget.created" }).success).toBe(false);
    expect(
      ActivityEventSchema.safeParse({ ...event, data: { invitation: event.data.invitation } }).success,
    ).toBe(false);
    expect(ActivityEventSchema.parse({ ...event, data: { ...event.data, extra: 1 } })).toEqual(event);
    expect(ActivityEventSchema.safeParse({ ...event, type: "budget.renamed" }).success).toBe(false);
  });

  it("hold id lists to MAX_IDS_IN_EVENT where the use case cuts them", () => {
    const ids = (n: number) => Array.from({ length: n }, () => event.data.invitation);
    const synced = ACTIVITY_EVENT_DATA["import.synced"];
    const data = {
      inserted_posted: MAX_IDS_IN_EVENT + 1,
      inserted_pending: 0,
      skipped_posted: 0,
      deleted_pending: 0,
      balance_mismatch: null,
      last_posted_through: "2026-03-09",
      new_transaction_ids: ids(MAX_IDS_IN_EVENT),
    };
    expect(synced.safeParse(data).success).toBe(true);
    expect(synced.safeParse({ ...data, new_transaction_ids: ids(MAX_IDS_IN_EVENT + 1) }).success).toBe(false);
  });
});
