/** Rows of a raw `execute`: postgres.js answers with an array of rows, PGlite with `{ rows }`. */
export function rowsOf<Row>(result: unknown): Row[] {
  return Array.isArray(result) ? result : ((result as { rows?: Row[] }).rows ?? []);
}
