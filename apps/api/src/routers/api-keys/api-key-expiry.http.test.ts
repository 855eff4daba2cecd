import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { warnExpiringApiKeys } from "@allot/domain/api-keys/warn-expiring-keys";
import { deliverImmediateNotifications } from "@allot/domain/notifications/deliver-notifications";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/testing/test-app";
import { useTestMailbox } from "../../../test/testing/test-mailbox";

describe.each(testEngines())("expiring API keys (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);

  it("emails the owner once about each active key expiring within 7 days", async () => {
    const user = await t.user();
    const create = async (name: string, expiry_days: number | null) => {
      const response = await t.as(user).call(apiKeyRoutes.create, { name, expiry_days });
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    };
    await create("nightly importer", 3);
    await create("later", 30);
    await create("forever", null);
    const revoked = await create("revoked soon", 2);
    await t.as(user).call(apiKeyRoutes.revoke, { uuid: revoked.uuid });

    expect(await warnExpiringApiKeys(internalContext(t.db, "scheduler"))).toBeGreaterThanOrEqual(1);
    expect(await warnExpiringApiKeys(internalContext(t.db, "scheduler"))).toBe(0);
    await deliverImmediateNotifications(internalContext(t.db, "scheduler"), { vault: t.vault });
    const messages = await mailbox.messagesTo(user.email);
    expect(messages.map((m) => m.subject)).toEqual(["API key expiring"]);
    expect(messages[0]?.text).toContain("name: nightly importer");
    // Eight days on, the 30-day key is not yet within the window; 24 days on it is.
    expect(
      await warnExpiringApiKeys({
        ...internalContext(t.db, "scheduler"),
        now: new Date(Date.now() + 24 * 86_400_000),
      }),
    ).toBeGreaterThanOrEqual(1);
  });
});
