import { type FieldErrors, NON_FIELD_ERRORS } from "./validation";
/** What went wrong, in the domain's words; apps/api/src/http/error-response.ts maps each to a status. */
export type DomainErrorKind =
  | "not_found"
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "conflict"
  | "unprocessable"
  | "gone"
  | "throttled";

/**
 * Errors a use case throws: a kind (how the caller got it wrong) and a code (which rule said so,
 * e.g. `unallocated_budget`). Nothing here knows HTTP.
 */
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  abstract readonly code: string;
  /** Set when the caller should try again after this many seconds (the answer's Retry-After). */
  readonly retryAfterSeconds?: number;
}

export class NotFound extends DomainError {
  readonly kind = "not_found";
  readonly code = "not_found";
  constructor(message = "Not found.") {
    super(message);
  }
}

/** Invalid input: messages per request field (dotted paths), cross-field ones under non_field_errors. */
export class ValidationFailed extends DomainError {
  readonly kind = "invalid";
  readonly code = "invalid";
  constructor(readonly fields: FieldErrors) {
    super(Object.values(fields).flat().join(" ") || "Invalid input.");
  }

  static on(field: string, message: string) {
    return new ValidationFailed({ [field]: [message] });
  }

  /** A refusal of the request as a whole (`non_field_errors`). */
  static general(message: string) {
    return ValidationFailed.on(NON_FIELD_ERRORS, message);
  }
}

export class Unauthenticated extends DomainError {
  readonly kind = "unauthenticated";
  constructor(
    message = "Authentication credentials were not provided.",
    readonly code = "not_authenticated",
  ) {
    super(message);
  }
}

export class Forbidden extends DomainError {
  readonly kind = "forbidden";
  constructor(
    message = "You do not have permission to perform this action.",
    readonly code = "permission_denied",
  ) {
    super(message);
  }
}

export class Conflict extends DomainError {
  readonly kind = "conflict";
  constructor(
    message: string,
    readonly code = "conflict",
  ) {
    super(message);
  }
}

/** A well-formed request the server will not process as it stands (422). */
export class Unprocessable extends DomainError {
  readonly kind = "unprocessable";
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** What the request names existed once and is no longer kept (410), e.g. an expired cursor. */
export class Gone extends DomainError {
  readonly kind = "gone";
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export class Throttled extends DomainError {
  readonly kind = "throttled";
  readonly code = "throttled";
  constructor(override readonly retryAfterSeconds: number) {
    super(`Request was throttled. Expected available in ${retryAfterSeconds} seconds.`);
  }
}
