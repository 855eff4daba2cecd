import type { Database } from "@allot/db/create-database";

type Prepared = { execute: (...args: unknown[]) => unknown; all?: (...args: unknown[]) => unknown };
type Session = { prepareQuery: (query: { sql: string }, ...rest: unknown[]) => Prepared };

/**
 * A database handle that records the text of every statement it runs, transactions included, in
 * order: for tests that prove two requests do the same database work whatever their input. It
 * wraps drizzle's session, where every query builder, `execute` and prepared statement ends up.
 */
export function recordingDatabase(db: Database) {
  const statements: string[] = [];

  const recordRuns = (prepared: Prepared, sql: string): Prepared =>
    new Proxy(prepared, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if ((property === "execute" || property === "all") && typeof value === "function") {
          return (...args: unknown[]) => {
            statements.push(sql);
            return value.apply(receiver, args);
          };
        }
        return value;
      },
    });

  const wrapSession = (session: Session): Session =>
    new Proxy(session, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== "prepareQuery" || typeof value !== "function") return value;
        return (query: { sql: string }, ...rest: unknown[]) =>
          recordRuns(value.call(receiver, query, ...rest), query.sql);
      },
    });

  const wrap = <T extends object>(handle: T): T =>
    new Proxy(handle, {
      get(target, property, receiver) {
        if (property === "session") return wrapSession(Reflect.get(target, property, receiver) as Session);
        if (property === "transaction") {
          const transaction = Reflect.get(target, property, receiver) as Database["transaction"];
          return ((work, config) =>
            transaction.call(target, (tx) => work(wrap(tx)), config)) as Database["transaction"];
        }
        return Reflect.get(target, property, receiver);
      },
    });

  return {
    db: wrap(db),
    /** The statements run since the last `take()`, oldest first; starts a new recording. */
    take(): string[] {
      return statements.splice(0);
    },
  };
}
