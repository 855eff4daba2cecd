import { preferenceRoutes } from "@allot/contract/preferences/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/testing/test-app";

describe.each(testEngines())("channel and notification preferences over HTTP (%s)", (engine) => {
  const t = useTestApp(engine);

  it("lists the email channel with daily_morning until the user picks another frequency", async () => {
    const user = await t.user();
    const list = await t.as(user).call(preferenceRoutes.listChannels);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual([
      { channel: "email", display_name: "Email", digest_frequency: "daily_morning" },
    ]);

    const patch = await t
      .as(user)
      .call(preferenceRoutes.updateChannel, { channel: "email", digest_frequency: "weekly_friday" });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(patch.json()).toEqual({
      channel: "email",
      display_name: "Email",
      digest_frequency: "weekly_friday",
    });
    expect((await t.as(user).call(preferenceRoutes.listChannels)).json()[0]?.digest_frequency).toBe(
      "weekly_friday",
    );
    // Another user's preferences are their own.
    const other = await t.user();
    const theirs = await t.as(other).call(preferenceRoutes.listChannels);
    expect(theirs.json()[0]?.digest_frequency).toBe("daily_morning");
  });

  it("answers 404 for a channel that does not exist and 400 for an unknown frequency", async () => {
    const user = await t.user();
    const unknown = await t
      .as(user)
      .call(preferenceRoutes.updateChannel, { channel: "sms", digest_frequency: "daily_morning" });
    expect(unknown.statusCode).toBe(404);
    const bad = await t
      .as(user)
      .callUnchecked(preferenceRoutes.updateChannel, { channel: "email", digest_frequency: "hourly" });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(["digest_frequency"]);
  });

  it("lists every registered kind with its default and lets the user change the ones that can be suppressed", async () => {
    const user = await t.user();
    const list = await t.as(user).call(preferenceRoutes.listNotifications);
    expect(list.statusCode, list.body).toBe(200);
    const byKind = Object.fromEntries(list.json().map((p) => [p.kind, [p.delivery_mode, p.can_suppress]]));
    expect(byKind).toEqual({
      funding_complete: ["digest", true],
      import_complete: ["off", true],
      transaction_posted: ["immediate", true],
      balance_mismatch: ["immediate", false],
      import_error: ["digest", true],
      recurring_budget_refreshed: ["digest", true],
      invitation_accepted: ["immediate", true],
      invitation_declined: ["immediate", true],
      password_changed: ["immediate", false],
      email_changed: ["immediate", false],
      email_change_requested: ["immediate", false],
      api_key_expiring: ["immediate", true],
    });

    const off = await t
      .as(user)
      .call(preferenceRoutes.updateNotification, { kind: "transaction_posted", delivery_mode: "off" });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({
      kind: "transaction_posted",
      display_name: "Transaction posted",
      can_suppress: true,
      delivery_mode: "off",
    });

    const locked = await t
      .as(user)
      .call(preferenceRoutes.updateNotification, { kind: "balance_mismatch", delivery_mode: "off" });
    expect(locked.statusCode).toBe(400);
    expect(Object.keys(locked.json())).toEqual(["delivery_mode"]);

    const unknown = await t
      .as(user)
      .call(preferenceRoutes.updateNotification, { kind: "lottery_won", delivery_mode: "off" });
    expect(unknown.statusCode).toBe(404);
  });

  it("works with an API key and refuses anonymous callers", async () => {
    const user = await t.user();
    const key = await t.apiKey(user);
    expect((await t.as(key).call(preferenceRoutes.listNotifications)).statusCode).toBe(200);
    expect((await t.anonymous.call(preferenceRoutes.listChannels)).statusCode).toBe(401);
  });
});
