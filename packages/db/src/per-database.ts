import type { Database, Tx } from "./create-database";

/**
 * Builds a value once per database handle (or transaction) and key, then reuses it: for prepared
 * statements on the per-request paths (authentication, throttling, the transaction list), which
 * drizzle would otherwise rebuild.
 */
export function perDatabase<D extends Database | Tx, K, V>(
  build: (db: D, key: K) => V,
): (db: D, key: K) => V {
  const cache = new WeakMap<D, Map<K, V>>();
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
