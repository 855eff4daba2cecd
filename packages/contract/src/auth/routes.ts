import { z } from "zod";
import { noContent, noInput } from "../http/fields";
import { defineRoute } from "../http/route";
import { AccessTokenSchema } from "./access-token";

const tags = ["auth"];

export const loginRoute = defineRoute({
  method: "POST",
  path: "/token/",
  status: 200,
  summary: "Log in with email and password; the refresh token is set as an HttpOnly cookie",
  tags,
  access: "public",
  input: z.object({ email: z.string().trim().min(1).max(254), password: z.string().min(1).max(4096) }),
  output: AccessTokenSchema,
});

export const refreshRoute = defineRoute({
  method: "POST",
  path: "/token/refresh/",
  status: 200,
  summary: "Exchange the refresh cookie for a new access token (and a rotated cookie)",
  tags,
  access: "public",
  input: noInput(),
  output: AccessTokenSchema,
});

export const logoutRoute = defineRoute({
  method: "POST",
  path: "/token/logout/",
  status: 204,
  summary: "End the session of the refresh cookie; always 204",
  tags,
  access: "public",
  input: noInput(),
  output: noContent(),
});
