import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "./create-database";
import { isTransientConflict } from "./database-errors";

/** Attempts of one transaction before its conflict reaches the caller (as a 503). */
export const CONFLICT_ATTEMPTS = 5;

/**
 * `db.transaction` that runs the work again when PostgreSQL rolled it back for a deadlock or a
 * serialisation failure: the whole transaction is undone then, so the use case can simply start
 * over. Waits a short random while first so the two writers do not collide again in lock step.
 * Savepoints (`tx.transaction`) are not retried: only the outermost transaction can be.
 */
export function retryingConflicts(db: Database): Database {
  const transaction: Database["transaction"] = async (work, config) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await db.transaction(work, config);
      } catch (error) {
        if (attempt >= CONFLICT_ATTEMPTS || !isTransientConflict(error)) throw error;
        await sleep(Math.random() * 20 * 2 ** attempt);
      }
    }
  };
  return new Proxy(db, {
    get: (target, property, receiver) =>
      property === "transaction" ? transaction : Reflect.get(target, property, receiver),
  });
}
