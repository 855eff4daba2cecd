import { ApiError } from "@allot/sdk/api-error";
import { reportError } from "./output";

/**
 * reportError, plus what to do when the API refused an API key on an endpoint that needs an
 * interactive login (key management, invitations, deleting an account).
 */
export function reportNeedingLogin(error: unknown, json: boolean): void {
  reportError(error, json);
  if (json || !(error instanceof ApiError) || error.code !== "interactive_login_required") return;
  process.stderr.write(
    "hint: API keys cannot do this. Run `allot login --email …`, then try again without --api-key or ALLOT_API_KEY.\n",
  );
}
