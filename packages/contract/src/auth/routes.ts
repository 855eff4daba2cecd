import { z } from "zod";
import { noContent, noInput } from "../http/fields";
import { defineRoute } from "../http/route";
import { AccessTokenSchema } from "./access-token";

const tags = ["auth"];
/** Why these writes record no activity event. */
const noEvents = { none: "a session is not an account's data" };

/** The auth routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const authRoutes = {
  login: defineRoute({
    method: "POST",
    path: "/token/",
    status: 200,
    summary: "Log in with email and password; the refresh token is set as an HttpOnly cookie",
    description:
      "Starts an interactive session. The body holds the access token (a JWT, valid for up to 60 minutes, for `Authorization: Bearer`); the refresh token is not in the body but in the `refresh_token` cookie (HttpOnly, Secure, SameSite=Strict, Path=/api/token). Wrong email or password answers 401. The Authorization header is ignored here.",
    tags,
    access: "public",
    refreshCookie: { sets: "issued" },
    events: noEvents,
    input: z.object({
      email: z
        .string()
        .trim()
        .min(1)
        .max(254)
        .meta({ description: "The login email.", example: "ada@example.com" }),
      password: z
        .string()
        .min(1)
        .max(4096)
        .meta({ description: "The password.", example: "correct horse battery staple" }),
    }),
    output: AccessTokenSchema,
  }),

  refresh: defineRoute({
    method: "POST",
    path: "/token/refresh/",
    status: 200,
    summary: "Exchange the refresh cookie for a new access token (and a rotated cookie)",
    description:
      "Reads the refresh token from the `refresh_token` cookie (no body) and answers a new access token. With rotation on, the cookie is replaced and its 14-day sliding window starts again. A missing, expired or blacklisted cookie answers 401 and the cookie is expired.",
    tags,
    access: "public",
    refreshCookie: { reads: true, sets: "rotated" },
    events: noEvents,
    input: noInput(),
    output: AccessTokenSchema,
  }),

  logout: defineRoute({
    method: "POST",
    path: "/token/logout/",
    status: 204,
    summary: "End the session of the refresh cookie; always 204",
    description:
      "Blacklists the refresh token of the `refresh_token` cookie and expires the cookie. A missing, invalid, expired or already blacklisted cookie is not an error: the answer is always 204. Access tokens already issued stay valid until they expire.",
    tags,
    access: "public",
    refreshCookie: { reads: true, sets: "cleared" },
    events: noEvents,
    input: noInput(),
    output: noContent(),
  }),
};
