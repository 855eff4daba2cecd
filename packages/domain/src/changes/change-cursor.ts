import { CHANGE_OBJECT_SCHEMAS, type ChangeType } from "@allot/contract/changes/change";
import { z } from "zod";
import { ValidationFailed } from "../shared/errors";

/**
 * A place in an account's change feed: after every change numbered below `changeSeq`, and, inside
 * that number, after (`type`, `id`) when they are given (a page that ended mid-number). The feed
 * is ordered by (change number, type, id).
 */
export interface FeedPosition {
  changeSeq: number;
  type?: ChangeType;
  id?: string;
}

/** Before everything: where a full snapshot starts. */
export const FEED_START: FeedPosition = { changeSeq: -1 };

const CursorSchema = z.strictObject({
  a: z.uuid(),
  s: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  t: z.enum(Object.keys(CHANGE_OBJECT_SCHEMAS) as [ChangeType, ...ChangeType[]]).optional(),
  i: z.uuid().optional(),
});

/** The opaque text given to clients: the account and the position, base64url JSON. */
export const encodeCursor = (accountId: string, position: FeedPosition) =>
  Buffer.from(
    JSON.stringify({ a: accountId, s: position.changeSeq, t: position.type, i: position.id }),
  ).toString("base64url");

const notACursor = () =>
  ValidationFailed.on("since", "Not a cursor of this account's changes; start again without `since`.");

/** The position a cursor names; 400 on `since` when it is malformed or another account's. */
export function decodeCursor(text: string, accountId: string): FeedPosition {
  let parsed: z.infer<typeof CursorSchema>;
  try {
    parsed = CursorSchema.parse(JSON.parse(Buffer.from(text, "base64url").toString("utf8")));
  } catch {
    throw notACursor();
  }
  if (parsed.a !== accountId || (parsed.t === undefined) !== (parsed.i === undefined)) throw notACursor();
  return { changeSeq: parsed.s, type: parsed.t, id: parsed.i };
}
