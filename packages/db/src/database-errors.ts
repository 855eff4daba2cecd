/** PostgreSQL's SQLSTATE of an error from either driver (drizzle wraps it in `cause`). */
export function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown) => sqlState(error) === "23505";
export const isForeignKeyViolation = (error: unknown) => sqlState(error) === "23503";
