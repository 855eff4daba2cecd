import { randomUUID } from "node:crypto";
import { takesIdempotencyKey } from "@allot/contract/http/route";
import { allRoutes } from "@allot/contract/routes";
import { accountEvents } from "@allot/db/schema/account-events";
import { testEngines } from "@allot/db/testing/test-databases";
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../testing/test-app";
import { useTestMailbox } from "../testing/test-mailbox";
import { ROUTE_CASES } from "./authorization-expectations";
import { buildOwnerWorld } from "./owner-world";

const keyOf = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
// docs/spec/extensions.md §1: every authenticated write; public routes ignore the header.
const keyed = allRoutes.filter(takesIdempotencyKey);

/*
 * Every authenticated write of the contract, sent by the owner (a staff user on staff routes) with an Idempotency-Key as the
 * authorisation matrix builds it, then sent again: the repeat answers the same status and body,
 * replayed, and changes nothing (no new activity event). A new write route is covered on its own.
 */
describe.each(testEngines())("Idempotency-Key on every authenticated write (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const events = async () => (await t.db.select({ n: count() }).from(accountEvents))[0]?.n ?? 0;

  for (const route of keyed) {
    it(`${keyOf(route)} replays its answer`, async () => {
      const world = await buildOwnerWorld(t, mailbox);
      const routeCase = ROUTE_CASES[keyOf(route)];
      if (!routeCase) throw new Error(`no matrix request for ${keyOf(route)}`);
      const request = await routeCase.request(world, "other_user_token");
      // Staff routes act on the owner's user as a staff member may.
      const authorization =
        route.access === "staff" ? (await t.user({ staff: true })).bearer : world.owner.bearer;
      const send = () =>
        t.inject({
          method: route.method,
          url: `/api${request.path}`,
          headers: { authorization, "idempotency-key": key },
          ...(request.payload === undefined ? {} : { payload: request.payload as Record<string, unknown> }),
        });
      const key = randomUUID();
      const first = await send();
      expect(first.statusCode, first.body).toBeLessThan(300);
      const before = await events();
      const again = await send();
      expect(again.headers["idempotent-replayed"], again.body).toBe("true");
      expect(again.statusCode).toBe(first.statusCode);
      expect(again.body).toBe(first.body);
      expect(await events()).toBe(before);
    });
  }
});
