import { type FieldErrors, NON_FIELD_ERRORS } from "./validation";
/** Errors a use case throws; apps/api maps each to the spec's status and body in one place. */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
}

export class NotFound extends DomainError {
  readonly status = 404;
  readonly code = "not_found";
  constructor(message = "Not found.") {
    super(message);
  }
}

/** Invalid input: messages per request field (dotted paths), cross-field ones under non_field_errors. */
export class ValidationFailed extends DomainError {
  readonly status = 400;
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
  readonly status = 401;
  constructor(
    message = "Authentication credentials were not provided.",
    readonly code = "not_authenticated",
  ) {
    super(message);
  }
}

export class Forbidden extends DomainError {
  readonly status = 403;
  constructor(
    message = "You do not have permission to perform this action.",
    readonly code = "permission_denied",
  ) {
    super(message);
  }
}

export class Conflict extends DomainError {
  readonly status = 409;
  constructor(
    message: string,
    readonly code = "conflict",
  ) {
    super(message);
  }
}

export class Throttled extends DomainError {
  readonly status = 429;
  readonly code = "throttled";
  constructor(readonly retryAfterSeconds: number) {
    super(`Request was throttled. Expected available in ${retryAfterSeconds} seconds.`);
  }
}
