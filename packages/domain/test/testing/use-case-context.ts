import type { Database } from "@allot/db/create-database";
import type { Actor } from "../../src/shared/actor";
import { internalContext, type UseCaseContext } from "../../src/shared/use-case-context";

/** A use case called straight from a test (not over HTTP), as the given user, as of now. */
export const asUser = (db: Database, actor: Actor): UseCaseContext => ({
  ...internalContext(db, "cli"),
  actor,
});

/** A user acting through a password login, as the API authenticates one. */
export const sessionActor = (user: { id: number; username: string }): Actor => ({
  userId: user.id,
  username: user.username,
  isStaff: false,
  credential: "session",
  sessionId: null,
  apiKey: null,
});
