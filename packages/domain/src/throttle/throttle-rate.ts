import { z } from "zod";

export interface ThrottleRate {
  limit: number;
  windowSeconds: number;
}

const UNIT_SECONDS = { second: 1, minute: 60, hour: 3600, day: 86_400 } as const;

/** "1000/minute" → { limit: 1000, windowSeconds: 60 }; several rates may be comma-separated. */
export function parseThrottleRates(text: string): ThrottleRate[] {
  return text.split(",").map((part) => {
    const match = /^\s*(\d+)\s*\/\s*(second|minute|hour|day)s?\s*$/.exec(part);
    if (!match) throw new Error(`Bad throttle rate '${part}': expected N/second|minute|hour|day`);
    return { limit: Number(match[1]), windowSeconds: UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS] };
  });
}

export const throttleRatesSchema = z.string().transform((text, ctx) => {
  try {
    return parseThrottleRates(text);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: (error as Error).message });
    return z.NEVER;
  }
});
