/**
 * `inline; filename="…"` for a download (RFC 6266): the quoted name keeps printable ASCII only
 * (quotes, backslashes and anything else become `_`), and a name with other characters also gets
 * `filename*=UTF-8''…`, percent-encoded, which browsers prefer.
 */
export function inlineContentDisposition(name: string): string {
  const ascii = Array.from(name, (c) => (/^[\x20-\x7e]$/.test(c) && c !== '"' && c !== "\\" ? c : "_")).join(
    "",
  );
  const header = `inline; filename="${ascii}"`;
  if (ascii === name) return header;
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${(c.codePointAt(0) as number).toString(16).toUpperCase()}`,
  );
  return `${header}; filename*=UTF-8''${encoded}`;
}
