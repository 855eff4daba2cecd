import type { Database } from "@allot/db/create-database";
import { fenceCredentials } from "@allot/domain/auth/credential-revocations";
import type { FastifyInstance } from "fastify";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A write request may have ended a credential (logout, password change or reset, a key revoked):
 * before its answer leaves, the credential cache is fenced until this instance has received the
 * revocations it committed, so the caller's very next request here is checked against the database.
 */
export function fenceCredentialsAfterWrites(app: FastifyInstance, db: Database): void {
  app.addHook("onSend", (request, _reply, payload, done) => {
    if (!SAFE_METHODS.has(request.method)) fenceCredentials(db);
    done(null, payload);
  });
}
