/*
 * Time zones are IANA names (importers anchor statement dates with them). The runtime's list
 * holds the canonical names; `Intl.DateTimeFormat` also knows the links ("UTC", "Europe/Kyiv",
 * "US/Pacific"), which are IANA names too.
 */

const canonical = new Map(Intl.supportedValuesOf("timeZone").map((zone) => [zone.toLowerCase(), zone]));

/** Resolved name the runtime gives a zone, or null when it does not know it. */
function resolve(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat("en", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * The stored spelling of an IANA time zone name, or null when it is not one. Case is
 * normalised ("america/new_york" → "America/New_York"); offsets such as "+02:00" are refused.
 */
export function normalizeTimeZone(input: string): string | null {
  const zone = input.trim();
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return null;
  const listed = canonical.get(zone.toLowerCase());
  if (listed) return listed;
  const resolved = resolve(zone);
  if (!resolved) return null;
  return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
}

/** The refusal of a name that is not an IANA time zone, wherever a user's zone is given. */
export const notATimeZone = (input: string) => `'${input}' is not a valid IANA time zone.`;
