import type { DatabaseEngine } from "@allot/db/create-database";
import { afterEach } from "vitest";
import { type ApiProcess, startApiProcess } from "./api-process";
import { createScratchStore, type ScratchStore } from "./scratch-store";

/**
 * One process-kill test's resources, released after it whatever happened (processes killed, the
 * scratch store dropped), last made first.
 */
export function useFaultRun(engine: DatabaseEngine) {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });
  const defer = (cleanup: () => Promise<unknown>) => cleanups.push(cleanup);
  return {
    defer,
    async store(): Promise<ScratchStore> {
      const store = await createScratchStore(engine);
      defer(() => store.dispose());
      return store;
    },
    /** The API on `store`; on PGlite, `freezeAt` arms the freeze (see kill-mid-write.ts). */
    async start(store: ScratchStore, freezeAt?: string): Promise<ApiProcess> {
      const api = await startApiProcess(store.env, engine === "pglite" && freezeAt ? { freezeAt } : {});
      defer(() => api.kill());
      return api;
    },
  };
}
