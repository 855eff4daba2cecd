import { authRoutes } from "@allot/contract/auth/routes";
import { refreshTokenFrom } from "./refresh-cookie";
import type { GeneratedResources } from "./resources";
import type { RouteInput } from "./route-types";
import { type Session, type SessionAuth, withCookie } from "./session-auth";
import type { RequestOptions, Transport } from "./transport";

/**
 * The token endpoints keep the refresh token in a cookie; a program has no cookie jar, so these
 * methods hand the cookie's value over and take it back as an argument. A login becomes the
 * client's own session (refreshed on its own from then on), unless the client uses an API key.
 */
export type AuthResource = Omit<GeneratedResources["auth"], "login" | "refresh" | "logout"> & {
  login(input: RouteInput<typeof authRoutes.login>, options?: RequestOptions): Promise<Session>;
  /**
   * A new access token; `refreshToken` is the rotated one (or the one given, when not rotated).
   * Without an argument, refreshes the client's own session.
   */
  refresh(input?: { refreshToken?: string }, options?: RequestOptions): Promise<Session>;
  /** Ends the session of the refresh token (by default the client's); always succeeds. */
  logout(input?: { refreshToken?: string | null }, options?: RequestOptions): Promise<void>;
};

export function authResource(
  generated: GeneratedResources["auth"],
  send: Transport,
  auth: SessionAuth,
): AuthResource {
  return {
    ...generated,
    async login(input, options) {
      const response = await send(authRoutes.login, input, options);
      const { access } = response.body as { access: string };
      const session = { access, refreshToken: refreshTokenFrom(response.headers["set-cookie"]) };
      await auth.adopt(session);
      return session;
    },
    refresh(input = {}, options) {
      return auth.refresh(input.refreshToken, options);
    },
    async logout(input = {}, options) {
      const refreshToken = input.refreshToken === undefined ? auth.session?.refreshToken : input.refreshToken;
      await send(authRoutes.logout, {}, withCookie(refreshToken, options));
      auth.forget(refreshToken);
    },
  };
}
