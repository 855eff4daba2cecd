import type { DigestFrequency } from "@allot/contract/preferences/preferences";

/** Every delivery channel (docs/spec/operations.md §Notifications): email only, for now. */
export const CHANNELS = { email: { displayName: "Email" } } as const;

export type Channel = keyof typeof CHANNELS;

export const DEFAULT_DIGEST_FREQUENCY: DigestFrequency = "daily_morning";

export const isChannel = (name: string): name is Channel => Object.hasOwn(CHANNELS, name);
