import type { DatabaseHandle } from "@allot/db/create-database";
import { apiKeys } from "@allot/db/schema/api-keys";
import { webhooks } from "@allot/db/schema/webhooks";
import { openTestDatabase, testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testVault } from "../../test/testing/test-vault";
import { asUser, sessionActor } from "../../test/testing/use-case-context";
import { createApiKey } from "../api-keys/create-api-key";
import { createAccessTokens } from "../auth/access-tokens";
import { endSession, startSession } from "../auth/sessions";
import type { Actor } from "../shared/actor";
import { Unauthenticated } from "../shared/errors";
import { internalContext } from "../shared/use-case-context";
import { createUser } from "../users/create-user";
import { createWebhook } from "./create-webhook";
import { disableWebhooksOfApiKeys } from "./disable-credential-webhooks";

/** What creating a webhook reads beside the database: the address policy, the vault. */
const SERVICES = { webhookPolicy: { allowHttp: true, allowPrivate: true }, vault: testVault };
const HOOK = { url: "http://127.0.0.1:9/hook", event_types: ["*" as const] };
const tokens = createAccessTokens("webhook-credential-test-secret-0123456789abcdef");
let counter = 0;

/**
 * Decision 0048: authentication may serve a credential from its one-second cache after the
 * credential was revoked elsewhere, so creating a webhook checks, and holds, the credential row.
 */
describe.each(testEngines())("a webhook's credential at creation (%s)", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.close();
  });

  async function aUserWithKey() {
    counter += 1;
    const user = await createUser(internalContext(database.db, "cli"), {
      email: `hooks${counter}@example.com`,
      password: "correct horse battery staple",
    });
    const key = await createApiKey(asUser(database.db, sessionActor(user)), { name: "sync" });
    const actor: Actor = {
      ...sessionActor(user),
      credential: "api_key",
      apiKey: { uuid: key.uuid, name: key.name, prefix: key.prefix },
    };
    return { user, key, actor };
  }
  const hooksOf = (userId: number) => database.db.select().from(webhooks).where(eq(webhooks.userId, userId));

  it("refuses a key revoked after the caller was authenticated, and makes no webhook", async () => {
    const { user, key, actor } = await aUserWithKey();
    await database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.uuid));
    await expect(createWebhook({ ...asUser(database.db, actor), services: SERVICES }, HOOK)).rejects.toEqual(
      new Unauthenticated("Invalid API key: the key has been revoked.", "authentication_failed"),
    );
    expect(await hooksOf(user.id)).toEqual([]);
  });

  it("refuses a login whose session ended after the caller was authenticated", async () => {
    const { user } = await aUserWithKey();
    const now = new Date();
    const issued = await startSession(database.db, tokens, user.id, now);
    const { sessionId } = await tokens.verify(issued.access);
    await endSession(database.db, sessionId, now);
    const actor: Actor = { ...sessionActor(user), sessionId };
    await expect(createWebhook({ ...asUser(database.db, actor), services: SERVICES }, HOOK)).rejects.toEqual(
      new Unauthenticated("Token is invalid: its session has ended.", "token_not_valid"),
    );
    expect(await hooksOf(user.id)).toEqual([]);
  });

  // Two connections at once: only PostgreSQL has them (PGlite runs one statement at a time).
  if (engine === "postgres")
    it("waits for a revocation of its key in flight, then is refused: no webhook slips past it", async () => {
      const { user, key, actor } = await aUserWithKey();
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const keyLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const revoking = database.db.transaction(async (tx) => {
        await tx.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.uuid));
        await disableWebhooksOfApiKeys(tx, user.id, [key.uuid]);
        locked();
        await held;
      });
      await keyLocked;
      const creating = createWebhook({ ...asUser(database.db, actor), services: SERVICES }, HOOK).then(
        () => "created",
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await revoking;
      expect(await creating).toEqual(
        new Unauthenticated("Invalid API key: the key has been revoked.", "authentication_failed"),
      );
      expect(await hooksOf(user.id)).toEqual([]);
    });
});
