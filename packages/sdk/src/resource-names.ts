/*
 * How a route export becomes a resource method: drop the `Route` suffix, then the area's noun
 * (plural, else singular) from the end. In area `bankAccounts`: listBankAccountsRoute → list,
 * getBankAccountRoute → get, markImportedRoute → markImported; in `users`: getMeRoute → getMe.
 * The type below mirrors the function, so `client.bankAccounts.list` is typed.
 */

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

export type MethodName<Export extends string, Area extends string> = Export extends `${infer Name}Route`
  ? StripNoun<Name, Capitalize<Area>> extends Name
    ? StripNoun<Name, Singular<Capitalize<Area>>>
    : StripNoun<Name, Capitalize<Area>>
  : Export;

const singular = (noun: string) =>
  noun.endsWith("ies") ? `${noun.slice(0, -3)}y` : noun.endsWith("s") ? noun.slice(0, -1) : noun;

export function methodName(exportName: string, area: string): string {
  const name = exportName.endsWith("Route") ? exportName.slice(0, -"Route".length) : exportName;
  const plural = area.charAt(0).toUpperCase() + area.slice(1);
  for (const noun of [plural, singular(plural)]) {
    if (name.endsWith(noun) && name.length > noun.length) return name.slice(0, -noun.length);
  }
  return name;
}
