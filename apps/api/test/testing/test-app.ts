import {
  startTestStorage,
  type TestStorage,
  type TestStorageKind,
} from "@allot/attachments/testing/test-storage";
import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { authRoutes } from "@allot/contract/auth/routes";
import { ATTACHMENT_MAX_BYTES } from "@allot/contract/transactions/transaction";
import type { DatabaseEngine, DatabaseHandle } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { openTestDatabase } from "@allot/db/testing/test-databases";
import type { AttachmentStore } from "@allot/domain/attachments/attachment-store";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import { listenForCredentialRevocations } from "@allot/domain/auth/credential-revocations";
import { secretVault } from "@allot/domain/secrets/secret-vault";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { TEST_SECRETS_KEYS } from "@allot/domain/testing/test-vault";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import { createUser } from "@allot/domain/users/create-user";
import { eq } from "drizzle-orm";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../../src/app";
import type { ApiConfig } from "../../src/config";
import { databaseThrottleCounters } from "../../src/throttle/database-throttle-store";
import type { ThrottleCounters } from "../../src/throttle/throttle-store";
import { type Caller, type RouteCaller, routeCaller } from "./test-client";
import { type ThrottleStoreKind, useTestRedisStore } from "./test-throttle-stores";

const generous = parseThrottleRates("100000/minute");

export const testConfig = (overrides: Partial<ApiConfig> = {}): ApiConfig => ({
  jwtSecret: "test-secret-test-secret-test-secret-0123456789",
  secrets: TEST_SECRETS_KEYS,
  publicBaseUrl: "http://allot.test",
  refreshRotation: true,
  secureCookies: true,
  // Test receivers listen on loopback over plain HTTP; the address-policy tests tighten this.
  webhooks: { allowHttp: true, allowPrivate: true },
  idempotencyTtlHours: 24,
  attachmentMaxBytes: ATTACHMENT_MAX_BYTES,
  throttle: {
    user: generous,
    anon: generous,
    loginPerIp: generous,
    loginPerEmail: generous,
    refreshPerIp: generous,
    invitationsPerUser: generous,
    passwordResetEmailPerAddress: generous,
    passwordResetEmailCeiling: generous,
  },
  ...overrides,
});

let userCounter = 0;

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  /** `Authorization` header of a fresh password login. */
  bearer: string;
}

/** The harness `useTestApp` gives a test file. */
export type TestApp = ReturnType<typeof useTestApp>;

/** The app's receipt files: the store it was given, and the storage behind it. */
interface TestAttachments {
  store: AttachmentStore;
  storage: TestStorage;
}

/**
 * One migrated database and one app per test file (or describe block), on the given engine, with
 * helpers that go through the public HTTP interface like a client would:
 * `t.as(user).call(budgetRoutes.get, { id })`. Receipts go to a temporary folder, or with
 * `attachments: "s3"` to an s3rver of the app's own.
 */
export function useTestApp(
  engine: DatabaseEngine,
  overrides: Partial<ApiConfig> = {},
  options: {
    throttleStore?: ThrottleStoreKind;
    attachments?: TestStorageKind;
    /** The store's counters as the app sees them (a test slowing or holding their round trips). */
    throttleCountersSeenAs?: (counters: ThrottleCounters) => ThrottleCounters;
  } = {},
) {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  const vault = secretVault(testConfig(overrides).secrets);
  let attachments: TestAttachments;
  let stopCredentialRevocations: (() => Promise<void>) | undefined;
  const redis = options.throttleStore === "redis" ? useTestRedisStore() : null;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    stopCredentialRevocations = await listenForCredentialRevocations(database);
    const config = testConfig(overrides);
    const storage = await startTestStorage(options.attachments ?? "local");
    attachments = { store: storage.store(), storage };
    app = await buildApp(
      {
        db: database.db,
        tokens: createAccessTokens(config.jwtSecret),
        config,
        attachments: attachments.store,
      },
      { throttleCounters: await testThrottleCounters() },
    );
  });
  async function testThrottleCounters(): Promise<ThrottleCounters | undefined> {
    const counters = redis ? await redis.counters() : undefined;
    if (!options.throttleCountersSeenAs) return counters;
    return options.throttleCountersSeenAs(counters ?? databaseThrottleCounters(database.db));
  }
  afterAll(async () => {
    await app?.close();
    await stopCredentialRevocations?.();
    await database?.close();
    await attachments?.storage.stop();
  });

  const harness = {
    get app() {
      return app;
    },
    get db() {
      return database.db;
    },
    /** The app's receipt files: the store, and the storage behind it. */
    get attachments() {
      return attachments;
    },
    /** What the app seals secrets with: for the senders run beside it, and to read what it sealed. */
    vault,
    /** The database handle, for what runs beside the app (the senders' LISTEN). */
    get database() {
      return database;
    },
    /** The raw request, for what no contract route describes: malformed bodies, odd paths, headers. */
    inject: (options: InjectOptions): Promise<LightMyRequestResponse> => app.inject(options),

    /** Calls contract routes as a test user, with an `Authorization` header value (an API key), or as nobody (`null`). */
    as: (caller: Caller): RouteCaller => routeCaller((options) => app.inject(options), caller),
    /** Calls contract routes without credentials. */
    get anonymous(): RouteCaller {
      return harness.as(null);
    },

    async login(email: string, password: string) {
      const response = await harness.anonymous.call(authRoutes.login, { email, password });
      if (response.statusCode !== 200)
        throw new Error(`login failed: ${response.statusCode} ${response.body}`);
      return `Bearer ${response.json().access}`;
    },

    /** A user made the admin way (in `timeZone`: the calendar of the accounts they open), logged in over HTTP. */
    async user(options: { staff?: boolean; name?: string; timeZone?: string } = {}): Promise<TestUser> {
      userCounter += 1;
      const email = `user${userCounter}-${Date.now()}@example.com`;
      const password = "correct horse battery staple";
      const row = await createUser(internalContext(database.db, "cli"), {
        email,
        password,
        name: options.name,
        staff: options.staff,
      });
      if (options.timeZone)
        await database.db.update(users).set({ timezone: options.timeZone }).where(eq(users.id, row.id));
      return {
        id: row.id,
        username: row.username,
        email,
        password,
        bearer: await harness.login(email, password),
      };
    },

    /** An API key of the user, created over HTTP: `Authorization` header value. */
    async apiKey(user: TestUser, name = "importer") {
      const response = await harness.as(user).call(apiKeyRoutes.create, { name });
      if (response.statusCode !== 201)
        throw new Error(`api key failed: ${response.statusCode} ${response.body}`);
      return `Api-Key ${response.json().key}`;
    },
  };
  return harness;
}
