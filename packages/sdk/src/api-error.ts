/** Marks ApiErrors across copies of the SDK (two versions installed), where `instanceof` fails. */
const BRAND = Symbol.for("@allot/sdk/ApiError");

/** Any answer of the API outside 2xx, with the spec's error body taken apart. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly [BRAND] = true;
  /** The HTTP status. */
  readonly status: number;
  /** The body's `code` (`invalid` for a field map, `unexpected_response` for a non-JSON body). */
  readonly code: string;
  /** The body's `detail`, or the field messages joined into one line. */
  readonly detail: string;
  /** The ValidationError field map of a 400 (`{"email": ["Enter a valid email address."]}`), else null. */
  readonly fields: Record<string, string[]> | null;
  /** Seconds from `Retry-After` (429, 409 key in progress), else null. */
  readonly retryAfter: number | null;
  /**
   * The `Idempotency-Key` the request sent (every attempt sent the same), null when it sent none
   * (GETs, public routes). Pass it as `idempotencyKey` to send the same write again later.
   */
  readonly idempotencyKey: string | null;
  /** The parsed body (or the raw text when it was not JSON). */
  readonly body: unknown;
  readonly method: string;
  readonly url: string;

  constructor(init: {
    status: number;
    body: unknown;
    method: string;
    url: string;
    retryAfter?: number | null;
    idempotencyKey?: string | null;
  }) {
    const { code, detail, fields } = describeBody(init.status, init.body);
    super(`${init.method} ${init.url} failed with ${init.status} ${code}: ${detail}`);
    this.status = init.status;
    this.code = code;
    this.detail = detail;
    this.fields = fields;
    this.retryAfter = init.retryAfter ?? null;
    this.idempotencyKey = init.idempotencyKey ?? null;
    this.body = init.body;
    this.method = init.method;
    this.url = init.url;
  }
}

/** A 400 whose body is the field map: `fields` is never null. */
export type ValidationError = ApiError & { status: 400; code: "invalid"; fields: Record<string, string[]> };

/** Narrows `unknown` (a `catch` binding) to ApiError, optionally of one status. */
export function isApiError(error: unknown, status?: number): error is ApiError {
  const branded = error instanceof ApiError || (isRecord(error) && error[BRAND as never] === true);
  return branded && (status === undefined || (error as ApiError).status === status);
}

/** A 400 with field errors: `error.fields.email` is typed without a null check. */
export function isValidationError(error: unknown): error is ValidationError {
  return isApiError(error, 400) && error.fields !== null;
}

function describeBody(status: number, body: unknown) {
  if (isRecord(body) && typeof body.detail === "string") {
    const code = typeof body.code === "string" ? body.code : `http_${status}`;
    return { code, detail: body.detail, fields: null };
  }
  if (isFieldMap(body)) {
    const detail = Object.entries(body)
      .map(([field, messages]) => `${field}: ${messages.join(" ")}`)
      .join("; ");
    return { code: "invalid", detail, fields: body };
  }
  const text = typeof body === "string" ? body.trim().slice(0, 200) : "";
  return { code: "unexpected_response", detail: text || `HTTP ${status}`, fields: null };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  (typeof value === "object" || typeof value === "function") && value !== null && !Array.isArray(value);

const isFieldMap = (value: unknown): value is Record<string, string[]> =>
  isRecord(value) &&
  Object.keys(value).length > 0 &&
  Object.values(value).every(
    (messages) => Array.isArray(messages) && messages.every((m) => typeof m === "string"),
  );
