import type { DigestFrequency } from "@allot/contract/preferences/preferences";
import type { ChannelName } from "@allot/db/schema/preferences";

/** Every delivery channel's name for people (docs/spec/operations.md §Notifications; the database lists them). */
export const CHANNELS = { email: { displayName: "Email" } } as const satisfies Record<
  ChannelName,
  { displayName: string }
>;

export const DEFAULT_DIGEST_FREQUENCY: DigestFrequency = "daily_morning";

export const isChannel = (name: string): name is ChannelName => Object.hasOwn(CHANNELS, name);
