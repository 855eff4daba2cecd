/** Who is calling, as the API authenticated them. */
export interface Actor {
  userId: number;
  username: string;
  isStaff: boolean;
  /** A password login (session) or a machine client (API key). */
  credential: "session" | "api_key";
  /** The session of a password login; null for API keys. */
  sessionId: string | null;
  /** The key of a machine client, as the activity trail names it; null for a password login. */
  apiKey: { uuid: string; name: string; prefix: string } | null;
}
