/*
 * What a failed request logs of its error. Database errors carry the statement and its values
 * (postgres.js: `query`, `parameters`, `args`; drizzle: `query`, `params`, and a message that
 * repeats both), so logging one as is wrote a request's whole payload into the log (18.8 MB for a
 * 70,000-key split) along with whatever personal data it held. Only a known set of short fields is
 * kept, each cut to a bounded length; the cause chain is followed a few levels.
 */

const MESSAGE_MAX = 300;
const FIELD_MAX = 200;
const STACK_FRAMES = 12;
const CAUSE_DEPTH = 3;
// Fields of database and HTTP errors that say what went wrong without repeating the request.
const KEPT_FIELDS = [
  "code",
  "statusCode",
  "severity",
  "routine",
  "constraint_name",
  "table_name",
  "column_name",
] as const;

export interface LoggableError {
  type: string;
  message: string;
  stack?: string;
  cause?: LoggableError;
  [field: string]: unknown;
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (cut)` : text);

// A drizzle message is "Failed query: <sql>\nparams: <values>": the values never go to the log.
const withoutValues = (message: string) => message.replace(/\nparams:[\s\S]*$/, "");

export function loggableError(error: unknown, depth = 0): LoggableError {
  if (!(error instanceof Error)) return { type: typeof error, message: cut(String(error), MESSAGE_MAX) };
  const logged: LoggableError = {
    type: error.constructor?.name ?? "Error",
    message: cut(withoutValues(error.message), MESSAGE_MAX),
  };
  // Only the frames: the stack's first line repeats the message in full.
  const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  if (frames.length > 0) logged.stack = frames.slice(0, STACK_FRAMES).join("\n");
  const fields = error as unknown as Record<string, unknown>;
  for (const field of KEPT_FIELDS) {
    const value = fields[field];
    if (typeof value === "string") logged[field] = cut(value, FIELD_MAX);
    else if (typeof value === "number") logged[field] = value;
  }
  if (error.cause !== undefined && depth < CAUSE_DEPTH) logged.cause = loggableError(error.cause, depth + 1);
  return logged;
}
