import { errors, jwtVerify, SignJWT } from "jose";
import { Unauthenticated } from "../shared/errors";

export const ACCESS_TOKEN_MINUTES = 60;

export interface AccessClaims {
  userId: number;
  sessionId: string;
}

/** The claims of a token whose signature and expiry were checked. */
export interface VerifiedAccessToken extends AccessClaims {
  expiresAt: Date;
}

/** HS256 access tokens: 60 minutes, bound to a session so ending the session ends them. */
export function createAccessTokens(secret: string) {
  // A CryptoKey imported once: given raw bytes or a KeyObject, jose imports one on every call.
  const key = crypto.subtle.importKey(
    "raw",
    Buffer.from(secret, "utf8"),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  return {
    sign: async (claims: AccessClaims, now = new Date()) =>
      new SignJWT({ sid: claims.sessionId })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(String(claims.userId))
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(now.getTime() / 1000) + ACCESS_TOKEN_MINUTES * 60)
        .sign(await key),

    async verify(token: string): Promise<VerifiedAccessToken> {
      try {
        const { payload } = await jwtVerify(token, await key, { algorithms: ["HS256"] });
        const userId = Number(payload.sub);
        if (!Number.isInteger(userId) || typeof payload.sid !== "string" || typeof payload.exp !== "number")
          throw new Error("claims");
        return { userId, sessionId: payload.sid, expiresAt: new Date(payload.exp * 1000) };
      } catch (error) {
        const expired = error instanceof errors.JWTExpired;
        throw new Unauthenticated(expired ? "Token has expired." : "Token is invalid.", "token_not_valid");
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
