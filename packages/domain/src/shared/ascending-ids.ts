import { randomUUID } from "node:crypto";

/**
 * `n` fresh random ids in ascending order, for rows inserted many a statement: in id order they
 * land at the right end of the indexes that hold the id (the primary key; the change feed's
 * (account, change number, id)) rather than on random pages, a good part of a bulk insert's cost.
 */
export const ascendingIds = (n: number): string[] => Array.from({ length: n }, () => randomUUID()).sort();
