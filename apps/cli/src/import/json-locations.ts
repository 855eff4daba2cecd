/** 1-based line of a character offset. */
const lineAt = (text: string, offset: number) => {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
};

/**
 * JSON.parse, with a syntax error turned into its line: V8 says "… at position N" (or nothing at
 * the end of the input, which is the last line).
 */
export function parseJsonText(text: string): { value: unknown } | { line: number; message: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    const line = position ? lineAt(text, Number(position[1])) : lineAt(text, text.length);
    return { line, message: `not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, "")}` };
  }
}

/**
 * The line each element of the top-level object's array `key` starts on, for valid JSON text
 * (JSON.parse keeps no positions): a scan that follows strings and nesting, nothing more.
 */
export function arrayElementLines(text: string, key: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let lastString = "";
  let currentKey: string | null = null;
  let inArray = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "\n") {
      line++;
      continue;
    }
    if (char === " " || char === "\t" || char === "\r") continue;
    if (inArray && depth === 2 && expectElement && char !== "]") {
      lines.push(line);
      expectElement = false;
    }
    if (char === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      if (depth === 1) lastString = JSON.parse(text.slice(i, end + 1));
      i = end;
    } else if (char === ":" && depth === 1) currentKey = lastString;
    else if (char === "," && inArray && depth === 2) expectElement = true;
    else if (char === "{" || char === "[") {
      if (depth === 1 && char === "[" && currentKey === key) {
        inArray = true;
        expectElement = true;
      }
      depth++;
    } else if (char === "}" || char === "]") {
      depth--;
      if (depth === 1) inArray = false;
    }
  }
  return lines;
}
