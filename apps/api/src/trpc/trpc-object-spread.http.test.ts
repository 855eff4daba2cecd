import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { anAccount } from "../../test/testing/fixtures";
import { countLibraryCalls, libraryFrame } from "../../test/testing/library-calls";
import { useTestApp } from "../../test/testing/test-app";

/*
 * @trpc/server's object-spread helper (patches/@trpc__server@11.25.2.patch, docs/decisions/0063):
 * tRPC merges its call options and context with it at every middleware of every call. Unpatched,
 * it walks each source's keys with a `forEach` closure and turns each key into a property key again
 * before copying it; patched, a plain loop assigns them. The work is counted, never timed: the
 * objects the helper merges (its `ownKeys`' `Object.keys`), and the keys it copies one closure at a
 * time (the length of each array its `forEach` walks). `Object.defineProperty` calls would not
 * tell them apart: patched or not, a key the target lacks is assigned and one it has is defined.
 */
const TRPC_HELPERS = libraryFrame(String.raw`@trpc/server/dist/getErrorShape-[\w-]+`);

describe.each(testEngines())("tRPC's object-spread helper, patched (%s)", (engine) => {
  const t = useTestApp(engine);

  it("copies the keys of the objects a procedure call merges without a closure per key", async () => {
    // Given a user with two accounts
    const user = await t.user();
    await anAccount(t, user, { name: "Checking" });
    await anAccount(t, user, { name: "Savings" });

    // When they list their accounts (the benchmarked request)
    let status = 0;
    const calls = await countLibraryCalls(
      {
        merged: { on: Object, name: "keys", from: new RegExp(`at ownKeys ${TRPC_HELPERS}`) },
        keysCopiedByClosure: {
          on: Array.prototype,
          name: "forEach",
          from: new RegExp(`at _objectSpread2 ${TRPC_HELPERS}`),
          weigh: (keys) => (keys as unknown[]).length,
        },
      },
      async () => {
        status = (await t.as(user).call(bankAccountRoutes.list, {})).statusCode;
      },
    );

    // Then the helper merged objects, and copied none of their keys through a closure
    // (unpatched: every key of every object it merged)
    expect(status).toBe(200);
    expect(calls.merged).toBeGreaterThan(0);
    expect(calls.keysCopiedByClosure).toBe(0);
  });
});
