import { z } from "zod";

/*
 * Control characters: C0 (U+0000–U+001F, tab and line breaks included), DEL (U+007F) and C1
 * (U+0080–U+009F). In a name they move a terminal's cursor, retitle or clear it, or break an
 * email header; no name needs one. One definition for the whole codebase: names refuse them
 * here, the CLI shows them escaped, emails replace them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** Every control character of a text, for a replace (a new RegExp each call: `g` keeps state). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
export const controlCharacters = () => /[\u0000-\u001f\u007f-\u009f]/g;

export const hasControlCharacters = (text: string) => CONTROL_CHARACTER.test(text);

export const CONTROL_CHARACTERS_MESSAGE =
  "Control characters (line breaks, tabs, escape codes) are not allowed in a name.";

/**
 * A name a person gives something (an account, a budget, a category, an API key, a user, a
 * webhook's description): text without control characters, checked before any trim, so a
 * trailing newline is refused rather than silently cut. Chain `.trim()`, `.min()` and `.max()` on it.
 * Texts that come from banks (transaction descriptions, merchant fields) do not use it: they are
 * kept as sent.
 */
export const nameText = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine((text) => !hasControlCharacters(text), {
    message: CONTROL_CHARACTERS_MESSAGE,
    abort: true,
  });
