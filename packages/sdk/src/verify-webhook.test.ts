import { randomBytes } from "node:crypto";
import type { ActivityEventData } from "@allot/contract/activity/activity-event-data";
import { WebhookPayloadSchema } from "@allot/contract/webhooks/webhook";
import { Webhook } from "standardwebhooks";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  verifyWebhook,
  type WebhookPayload,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from "./verify-webhook";

/** A secret as the API makes one: `whsec_` + base64 of 32 random bytes. */
const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

const payload = {
  type: "webhook.test",
  timestamp: "2026-03-10T09:41:00.000Z",
  data: {
    id: "0b6f3f4e-8a4c-4c1e-9d55-2f0c3a9e7b10",
    type: "webhook.test",
    occurred_at: "2026-03-10T09:41:00.000Z",
    bank_account: null,
    actor: { kind: "user", username: "sam", api_key: null },
    request_id: "req-1",
    summary: "sam sent a test event",
    data: { webhook: "5e1f7a3c-2b4d-4c6e-8f0a-1b3c5d7e9f2a" },
  },
};
const body = JSON.stringify(payload);

/** The three headers of a delivery, signed by standardwebhooks itself with each secret given. */
function signed(secrets: string[], options: { at?: Date; text?: string } = {}) {
  const at = options.at ?? new Date();
  const id = "0b6f3f4e-8a4c-4c1e-9d55-2f0c3a9e7b10";
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets
      .map((secret) => new Webhook(secret).sign(id, at, options.text ?? body))
      .join(" "),
  };
}

/** The reason verifyWebhook refused with; fails the test when it did not refuse. */
function refusal(run: () => unknown): WebhookVerificationReason {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  }
  throw new Error("verifyWebhook accepted it");
}

describe("verifyWebhook", () => {
  const secret = newSecret();

  it("returns the payload of a body signed with the secret, given as text or bytes", () => {
    expect(verifyWebhook(secret, signed([secret]), body)).toEqual(payload);
    expect(verifyWebhook(secret, signed([secret]), Buffer.from(body))).toEqual(payload);
    expect(verifyWebhook(secret, signed([secret]), new TextEncoder().encode(body))).toEqual(payload);
  });

  it("reads fetch Headers, and plain objects in any case with repeated values as arrays", () => {
    const headers = signed([secret]);
    expect(verifyWebhook(secret, new Headers(headers), body)).toEqual(payload);
    const [first, second] = signed([newSecret(), secret])["webhook-signature"].split(" ");
    const node = {
      "Webhook-Id": headers["webhook-id"],
      "WEBHOOK-TIMESTAMP": headers["webhook-timestamp"],
      "webhook-signature": [first ?? "", second ?? ""],
      "content-type": "application/json",
    };
    expect(verifyWebhook(secret, node, body)).toEqual(payload);
  });

  it("accepts two space-separated signatures while a rotated-out secret still signs, whichever matches", () => {
    const old = newSecret();
    const both = signed([old, secret]);
    expect(verifyWebhook(secret, both, body)).toEqual(payload);
    expect(verifyWebhook(old, both, body)).toEqual(payload);
    expect(refusal(() => verifyWebhook(newSecret(), both, body))).toBe("no_matching_signature");
  });

  it("refuses a changed body, another secret, and a body parsed and serialised again", () => {
    const headers = signed([secret]);
    expect(refusal(() => verifyWebhook(secret, headers, body.replace("sam", "eve")))).toBe(
      "no_matching_signature",
    );
    expect(refusal(() => verifyWebhook(newSecret(), headers, body))).toBe("no_matching_signature");
    expect(refusal(() => verifyWebhook(secret, headers, JSON.stringify(payload, null, 2)))).toBe(
      "no_matching_signature",
    );
    expect(() => verifyWebhook(secret, headers, body.replace("sam", "eve"))).toThrow(
      /matches this body and secret/,
    );
  });

  it("refuses a timestamp more than 5 minutes away, though signed with the secret", () => {
    const stale = signed([secret], { at: new Date(Date.now() - 6 * 60_000) });
    expect(refusal(() => verifyWebhook(secret, stale, body))).toBe("timestamp_too_old");
    expect(() => verifyWebhook(secret, stale, body)).toThrow(/more than 5 minutes old/);
    const ahead = signed([secret], { at: new Date(Date.now() + 6 * 60_000) });
    expect(refusal(() => verifyWebhook(secret, ahead, body))).toBe("timestamp_too_new");
    const unreadable = { ...signed([secret]), "webhook-timestamp": "yesterday" };
    expect(refusal(() => verifyWebhook(secret, unreadable, body))).toBe("invalid_timestamp");
  });

  it("refuses a request without the three headers", () => {
    const { "webhook-signature": _, ...unsigned } = signed([secret]);
    expect(refusal(() => verifyWebhook(secret, unsigned, body))).toBe("missing_headers");
    expect(refusal(() => verifyWebhook(secret, new Headers(), body))).toBe("missing_headers");
  });

  it("types the payload by its type: narrowed on `type`, `data.data` is that event type's data", () => {
    // A transfer as the server delivers it; the contract's schema of the payload takes it unchanged.
    const transfer = {
      type: "transfer.created",
      timestamp: "2026-03-10T09:41:00.000Z",
      data: {
        ...payload.data,
        type: "transfer.created",
        bank_account: "7c4e2b19-5a3d-4f8e-a6b1-9d0c3e2f4a58",
        summary: "sam moved 75.00 USD from Unallocated to Groceries",
        data: {
          id: "8f0b2d4e-6a1c-4e3b-9d5f-7a9c1e3b5d7f",
          bank_account: "7c4e2b19-5a3d-4f8e-a6b1-9d0c3e2f4a58",
          amount: "75.00",
          amount_currency: "USD",
          src_budget: "e1a7c3d5-2b4f-4e6a-8c9d-0f1e2a3b4c5d",
          dst_budget: "b7d3e1f2-4a6c-4b8e-9d0f-1a2b3c4d5e6f",
          actor: 12,
          effective_date: "2026-03-10T09:41:00.000Z",
          src_budget_balance: "137.40",
          src_budget_balance_currency: "USD",
          dst_budget_balance: "229.20",
          dst_budget_balance_currency: "USD",
          created_at: "2026-03-10T09:41:00.000Z",
          modified_at: "2026-03-10T09:41:00.000Z",
          completed_budgets: ["b7d3e1f2-4a6c-4b8e-9d0f-1a2b3c4d5e6f"],
        },
      },
    };
    const text = JSON.stringify(transfer);
    expect(WebhookPayloadSchema.parse(transfer)).toEqual(transfer);

    const received = verifyWebhook(secret, signed([secret], { text }), text);
    expectTypeOf(received).toEqualTypeOf<WebhookPayload>();
    expect(received.type).toBe("transfer.created");
    if (received.type !== "transfer.created") throw new Error("not the transfer");
    expectTypeOf(received.data.type).toEqualTypeOf<"transfer.created">();
    expectTypeOf(received.data.data).toEqualTypeOf<ActivityEventData<"transfer.created">>();
    expectTypeOf(received.data.data.amount).toEqualTypeOf<string>();
    expectTypeOf(received.data.data.completed_budgets).toEqualTypeOf<string[]>();
    expect(received.data.data.amount).toBe("75.00");
    expect(received.data.data.completed_budgets).toEqual(["b7d3e1f2-4a6c-4b8e-9d0f-1a2b3c4d5e6f"]);
    // @ts-expect-error: a transfer's data names its budgets src_budget and dst_budget, not budget.
    expect(received.data.data.budget).toBeUndefined();

    // The event alone narrows the same way.
    const event = received.data as WebhookPayload["data"];
    if (event.type === "webhook.test") expectTypeOf(event.data).toEqualTypeOf<{ webhook: string }>();
    expect(event.type === "transfer.created" && event.data.dst_budget).toBe(
      "b7d3e1f2-4a6c-4b8e-9d0f-1a2b3c4d5e6f",
    );
  });

  it("throws a TypeError for a parsed body or a secret that is not one: mistakes of the receiver", () => {
    const headers = signed([secret]);
    expect(() => verifyWebhook(secret, headers, payload as unknown as string)).toThrow(TypeError);
    expect(() => verifyWebhook("", headers, body)).toThrow(/not a webhook secret/);
    expect(() => verifyWebhook("whsec_not base64!", headers, body)).toThrow(/not a webhook secret/);
  });
});
