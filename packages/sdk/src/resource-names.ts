/*
 * How a route export becomes a resource method: drop the `Route` suffix, then the area's noun
 * (plural, else singular) from the end, then the area's noun from the start. In area
 * `bankAccounts`: listBankAccountsRoute → list, getBankAccountRoute → get, markImportedRoute →
 * markImported; in `users`: getMeRoute → getMe; in `funding`: fundingSummaryRoute → summary.
 * Names the rule gets wrong are renamed by hand in RENAMES. The types below mirror the function,
 * so `client.bankAccounts.list` is typed.
 */

/** Exports whose rule-made name reads badly (`preferences.listChannel`, `invitations.listMy`, …). */
const RENAMES = {
  listChannelPreferencesRoute: "listChannels",
  updateChannelPreferenceRoute: "updateChannel",
  listNotificationPreferencesRoute: "listNotifications",
  updateNotificationPreferenceRoute: "updateNotification",
  listAccountInvitationsRoute: "listForAccount",
  listMyInvitationsRoute: "listMine",
  // The noun sits mid-name, which the rule leaves: webhooks.rotateWebhookSecret, listWebhookDeliveries.
  rotateWebhookSecretRoute: "rotateSecret",
  listWebhookDeliveriesRoute: "listDeliveries",
} as const;
type Renames = typeof RENAMES;

type Singular<Noun extends string> = Noun extends `${infer Stem}ies`
  ? `${Stem}y`
  : Noun extends `${infer Stem}s`
    ? Stem
    : Noun;

type StripNoun<Name extends string, Noun extends string> = Name extends `${infer Verb}${Noun}`
  ? Verb extends ""
    ? Name
    : Verb
  : Name;

type StripTrailingArea<Name extends string, Area extends string> =
  StripNoun<Name, Capitalize<Area>> extends Name
    ? StripNoun<Name, Singular<Capitalize<Area>>>
    : StripNoun<Name, Capitalize<Area>>;

type StripLeadingArea<Name extends string, Area extends string> = Name extends `${Area}${infer Rest}`
  ? Rest extends ""
    ? Name
    : Rest extends Capitalize<Rest>
      ? Uncapitalize<Rest>
      : Name
  : Name;

export type MethodName<Export extends string, Area extends string> = Export extends keyof Renames
  ? Renames[Export]
  : Export extends `${infer Name}Route`
    ? StripLeadingArea<StripTrailingArea<Name, Area>, Area>
    : Export;

const singular = (noun: string) =>
  noun.endsWith("ies") ? `${noun.slice(0, -3)}y` : noun.endsWith("s") ? noun.slice(0, -1) : noun;

const isUpper = (char: string) => char !== "" && char === char.toUpperCase() && char !== char.toLowerCase();

export function methodName(exportName: string, area: string): string {
  if (Object.hasOwn(RENAMES, exportName)) return RENAMES[exportName as keyof Renames];
  if (!exportName.endsWith("Route")) return exportName;
  let name = exportName.slice(0, -"Route".length);
  const plural = area.charAt(0).toUpperCase() + area.slice(1);
  for (const noun of [plural, singular(plural)]) {
    if (name.endsWith(noun) && name.length > noun.length) {
      name = name.slice(0, -noun.length);
      break;
    }
  }
  const rest = name.slice(area.length);
  if (name.startsWith(area) && isUpper(rest.charAt(0))) name = rest.charAt(0).toLowerCase() + rest.slice(1);
  return name;
}
