import { ApiError } from "@allot/sdk/api-error";
import { DEFAULT_PROFILE } from "./config-file";

/** The stored login a command authenticates with, so an error can say how to log in again. */
let sessionInUse: { profileName: string; email?: string } | null = null;

export function noteSessionInUse(profileName: string, email: string | undefined): void {
  sessionInUse = { profileName, email };
}

/** `allot login` for a profile: its email when known, its name when not the default one. */
function loginCommand(profileName: string, email: string | undefined): string {
  const profile = profileName === DEFAULT_PROFILE ? "" : ` --profile ${profileName}`;
  return `allot login --email ${email ?? "EMAIL"}${profile}`;
}

/**
 * What to do when the server refused the login's token: its session ended (a password reset or
 * change, a logout elsewhere) or the token is not valid. Null for any other error.
 */
export function sessionEndedHint(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 401 || error.code !== "token_not_valid") return null;
  const command = sessionInUse
    ? loginCommand(sessionInUse.profileName, sessionInUse.email)
    : "allot login --email EMAIL";
  return `your login is no longer valid (a password reset or change ends it): run \`${command}\` to log in again.`;
}
