import type { Database } from "@allot/db/create-database";

/**
 * Builds a value once per database handle and key, then reuses it: for prepared statements on
 * the per-request paths (authentication, throttling), which drizzle would otherwise rebuild.
 */
export function perDatabase<K, V>(build: (db: Database, key: K) => V): (db: Database, key: K) => V {
  const cache = new WeakMap<Database, Map<K, V>>();
  return (db, key) => {
    let byKey = cache.get(db);
    if (!byKey) {
      byKey = new Map();
      cache.set(db, byKey);
    }
    let value = byKey.get(key);
    if (value === undefined) {
      value = build(db, key);
      byKey.set(key, value);
    }
    return value;
  };
}
