import { createSecretKey } from "node:crypto";
import { errors, jwtVerify, SignJWT } from "jose";
import { Unauthenticated } from "../shared/errors";

export const ACCESS_TOKEN_MINUTES = 60;

export interface AccessClaims {
  userId: number;
  sessionId: string;
}

/** HS256 access tokens: 60 minutes, bound to a session so ending the session ends them. */
export function createAccessTokens(secret: string) {
  // A KeyObject imported once: jose would re-import raw bytes on every sign and verify.
  const key = createSecretKey(Buffer.from(secret, "utf8"));
  return {
    sign: (claims: AccessClaims, now = new Date()) =>
      new SignJWT({ sid: claims.sessionId })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(String(claims.userId))
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(now.getTime() / 1000) + ACCESS_TOKEN_MINUTES * 60)
        .sign(key),

    async verify(token: string): Promise<AccessClaims> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"] });
        const userId = Number(payload.sub);
        if (!Number.isInteger(userId) || typeof payload.sid !== "string") throw new Error("claims");
        return { userId, sessionId: payload.sid };
      } catch (error) {
        const expired = error instanceof errors.JWTExpired;
        throw new Unauthenticated(expired ? "Token has expired." : "Token is invalid.", "token_not_valid");
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
