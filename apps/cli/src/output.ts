import { EmbeddedDatabaseInUse } from "@allot/db/embedded-database-lock";
import { DomainError, ValidationFailed } from "@allot/domain/shared/errors";
import { ApiError } from "@allot/sdk/api-error";
import { idempotencyKeyOf } from "@allot/sdk/idempotency-key";
import { WRITE_JOURNAL_MAX_AGE_HOURS } from "@allot/sdk/write-journal";
import { EXIT_API_ERROR, EXIT_USAGE } from "./cli-conventions";
import { jsonText, shown, terminalText } from "./format/terminal-text";
import { sessionEndedHint } from "./session-in-use";

/** For scripts: the value as JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${jsonText(value, 2)}\n`);
}

/** For people: one aligned `key  value` line per field, control characters shown escaped. */
export function printRecord(record: Record<string, unknown>): void {
  const width = Math.max(...Object.keys(record).map((key) => key.length));
  for (const [key, value] of Object.entries(record)) {
    process.stdout.write(
      shown`${key.padEnd(width)}  ${value === null || value === undefined ? "-" : String(value)}\n`,
    );
  }
}

/**
 * Shown when a command fails because of what the user gave it or how the CLI is set up (bad
 * argument, unknown profile, not logged in): exit 2. Say what to do next in the message.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly code = "usage_error",
    /** More fields for the --json error body (e.g. an import file's list of problems). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * The error in the API's body shapes (a field map for invalid input, else `{detail, code}`), on
 * stderr: as JSON with --json, as lines for people. Sets the exit status: 2 for a UsageError, else 1.
 */
export function reportError(error: unknown, json: boolean): void {
  process.exitCode = error instanceof UsageError ? EXIT_USAGE : EXIT_API_ERROR;
  const body = errorBody(error);
  if (json) {
    process.stderr.write(`${jsonText(body, 2)}\n`);
    return;
  }
  if (typeof body.detail === "string") {
    process.stderr.write(`error: ${detailText(error, body.detail)}\n`);
    const loginHint = sessionEndedHint(error);
    if (loginHint) process.stderr.write(shown`hint: ${loginHint}\n`);
    if (UNANSWERED.has(body.code as string) && idempotencyKeyOf(error) !== null)
      process.stderr.write(
        shown`hint: the write may have gone through. Run the same command again within ${WRITE_JOURNAL_MAX_AGE_HOURS} hours: it is resent with the same Idempotency-Key and applied once.\n`,
      );
    return;
  }
  process.stderr.write("error: invalid input\n");
  for (const [field, messages] of Object.entries(body)) {
    for (const message of messages as string[]) process.stderr.write(shown`  ${field}: ${message}\n`);
  }
}

/**
 * An error's message for a terminal: control characters escaped, except the line breaks the CLI's
 * own usage errors are written with (an import file's list of problems); the server's messages,
 * which may echo names, are escaped whole.
 */
const detailText = (error: unknown, detail: string) =>
  error instanceof UsageError ? detail.split("\n").map(terminalText).join("\n") : terminalText(detail);

/** A write that got no answer, or whose first attempt still runs: the write journal resends it (write-journal.ts). */
const UNANSWERED = new Set(["connection_failed", "idempotency_key_in_progress"]);

/** What undici and node:net throw when the server cannot be reached or answers nothing. */
const NETWORK_ERRORS =
  /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+)$/;

function errorBody(error: unknown): Record<string, unknown> {
  if (error instanceof ValidationFailed) return error.fields;
  if (error instanceof UsageError) return { detail: error.message, code: error.code, ...error.extra };
  if (error instanceof DomainError || error instanceof EmbeddedDatabaseInUse)
    return { detail: error.message, code: error.code };
  if (error instanceof ApiError) {
    // The server's own body when it is one of its shapes, so scripts see what the API said.
    return error.fields ?? { detail: error.detail, code: error.code };
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && typeof code === "string" && NETWORK_ERRORS.test(code)) {
    return { detail: `Could not reach the API: ${error.message}`, code: "connection_failed" };
  }
  return { detail: error instanceof Error ? error.message : String(error), code: "error" };
}
