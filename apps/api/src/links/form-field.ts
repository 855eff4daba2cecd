/** A submitted form field as a string; a missing or repeated field is empty, left for the checks to judge. */
export function formField(body: unknown, name: string): string {
  const value = body && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === "string" ? value : "";
}
