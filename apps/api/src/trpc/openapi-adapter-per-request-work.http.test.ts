import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { anAccount } from "../../test/testing/fixtures";
import { countLibraryCalls, libraryFrame, type WatchedCall } from "../../test/testing/library-calls";
import { type TestApp, type TestUser, useTestApp } from "../../test/testing/test-app";

/*
 * trpc-to-openapi's adapter (patches/trpc-to-openapi@3.3.0.patch, docs/decisions/0063) does three
 * things for every request that the patch does once or not at all. Each is counted here, never
 * timed, over requests to the accounts list (the benchmarked request):
 * - the abort signal: unpatched, it builds a whole fetch `Request` (headers copied) to take its
 *   signal; patched, it makes the signal alone;
 * - coercion: unpatched, `coerceSchema` walks the route's input schema at every request to set the
 *   flags it set the first time; patched, once per schema;
 * - the reply: unpatched, the Fastify adapter binds nine event methods and defines a `statusCode`
 *   accessor on every request and reply; patched, it declares `setHeader` and `end` once.
 */
const inAdapter = (file: string) => libraryFrame(`trpc-to-openapi/dist/(esm|cjs)/${file}`);
const REQUESTS = 3;

/** What each of `REQUESTS` lists of the user's accounts cost in the watched calls, request by request. */
async function perRequest<Key extends string>(
  t: TestApp,
  user: TestUser,
  watched: Record<Key, WatchedCall>,
): Promise<Record<Key, number>[]> {
  const costs: Record<Key, number>[] = [];
  for (let request = 0; request < REQUESTS; request++) {
    costs.push(
      await countLibraryCalls(watched, async () => {
        const response = await t.as(user).call(bankAccountRoutes.list, {});
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json().count).toBe(1);
      }),
    );
  }
  return costs;
}

describe.each(testEngines())("trpc-to-openapi's adapter, patched (%s)", (engine) => {
  const t = useTestApp(engine);
  const userWithAnAccount = async () => {
    const user = await t.user();
    await anAccount(t, user);
    return user;
  };

  it("makes a request's abort signal without building a fetch Request", async () => {
    // The adapter's getRequestSignal; unpatched, @trpc/server's incomingMessageToRequest it calls.
    const signalMakers = new RegExp(
      `${inAdapter("utils/method")}|${libraryFrame(String.raw`@trpc/server/dist/node-http-[\w-]+`)}`,
    );
    const costs = await perRequest(t, await userWithAnAccount(), {
      signalsMade: { on: globalThis, name: "AbortController", from: signalMakers },
      requestsBuilt: { on: globalThis, name: "Request", from: signalMakers },
    });
    expect(costs).toEqual(Array(REQUESTS).fill({ signalsMade: 1, requestsBuilt: 0 }));
  });

  it("walks a route's input schema to coerce it once at most, not at every request", async () => {
    // The first request to the route in this file may walk it; none after.
    const costs = await perRequest(t, await userWithAnAccount(), {
      schemaWalks: {
        on: Object,
        name: "values",
        from: new RegExp(`at coerceSchema ${inAdapter("utils/zod")}`),
      },
    });
    const walks = costs.map(({ schemaWalks }) => schemaWalks);
    expect(walks.reduce((sum, n) => sum + n)).toBeLessThanOrEqual(1);
    expect(walks.slice(1)).toEqual(Array(REQUESTS - 1).fill(0));
  });

  it("gives the reply its Node-style methods once, not on every request", async () => {
    const adapter = new RegExp(inAdapter("adapters/fastify"));
    const costs = await perRequest(t, await userWithAnAccount(), {
      // The adapter's handler ran: it takes the prefix off the URL, two replaces, patched or not.
      urlReplaces: { on: String.prototype, name: "replace", from: adapter },
      methodsBound: { on: Function.prototype, name: "bind", from: adapter },
      propertiesDefined: { on: Object, name: "defineProperty", from: adapter },
    });
    expect(costs).toEqual(Array(REQUESTS).fill({ urlReplaces: 2, methodsBound: 0, propertiesDefined: 0 }));
  });
});
