import { controlCharacters } from "@allot/contract/http/control-characters";

/*
 * Text from the server reaches a terminal, and a terminal obeys control characters: an ESC
 * sequence in a co-owner's account name could retitle the window, clear the screen or rewrite a
 * line already shown. Every text the CLI prints for people goes through `terminalText` (tables,
 * records, errors) or the `shown` tag (sentences): each control character is printed as its
 * escape, visibly. `--json` stays JSON (`jsonText`): JSON.stringify escapes C0 itself, and DEL and
 * C1 are written as `\u` escapes too, the same value for a parser.
 */

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

const visible = (control: string) =>
  NAMED[control] ?? `\\x${control.charCodeAt(0).toString(16).padStart(2, "0")}`;

/** The text with every control character (C0, DEL, C1) shown as its escape: `\x1b`, `\n`, `\x85`. */
export const terminalText = (text: string): string => text.replace(controlCharacters(), visible);

/**
 * A sentence for people with every interpolated value passed through `terminalText`, the
 * sentence's own line breaks kept: `shown\`Deleted '${account.name}'.\n\``.
 */
export function shown(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.reduce(
    (text, part, i) => text + (i === 0 ? "" : terminalText(String(values[i - 1]))) + part,
    "",
  );
}

// JSON.stringify leaves DEL and C1 raw; in JSON text they can only stand inside a string.
const RAW_IN_JSON = /[\u007f-\u009f]/g;

/** The value as JSON text with no raw control character in it (an indent for people, as JSON.stringify takes it). */
export const jsonText = (value: unknown, indent?: number): string =>
  (JSON.stringify(value, null, indent) ?? "").replace(
    RAW_IN_JSON,
    (control) => `\\u${control.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
