import { z } from "zod";

export const AccessTokenSchema = z
  .object({
    access: z.string().meta({
      description: "The access token (a JWT) for `Authorization: Bearer`; valid for up to 60 minutes.",
      example: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
    }),
  })
  .meta({ id: "AccessToken", description: "A new access token; the refresh token travels in its cookie." });
