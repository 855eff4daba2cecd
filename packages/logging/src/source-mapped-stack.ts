import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/*
 * A crash's stack led back to the sources, read only when a process is ending. The server runs
 * without `--enable-source-maps`: with it Node parses the bundle's 17 MB map at start and keeps it
 * (+35 MB resident for the life of the process; the list bench lost a quarter of its
 * throughput), and building the map's index costs another 100 MB and 0.4 s the first time any
 * stack is written. A process that is ending can afford both (decision 0061).
 */

// "    at name (file:///…/main.js:1:234)", "    at file:///…/main.js:1:234", "    at /…/main.js:1:234"
const FRAME_POSITION = /(file:\/\/\/[^\s()]+|\/[^\s():]+):(\d+):(\d+)(?=\)?$)/;
const LINKED_MAP = /\/\/# sourceMappingURL=(\S+)\s*$/;

/** The map a generated file links with `//# sourceMappingURL=`, or none. */
function linkedMap(file: string): { map: SourceMap; mapUrl: URL } | null {
  if (!existsSync(file)) return null;
  const source = readFileSync(file, "utf8");
  const linked = LINKED_MAP.exec(source.slice(-1024))?.[1];
  if (!linked || linked.startsWith("data:")) return null;
  const mapUrl = new URL(linked, pathToFileURL(file));
  const mapFile = fileURLToPath(mapUrl);
  if (!existsSync(mapFile)) return null;
  return { map: new SourceMap(JSON.parse(readFileSync(mapFile, "utf8"))), mapUrl };
}

/**
 * The stack with each frame in a file that links a source map rewritten to its original file,
 * line and column. Frames without one (Node's own, dependencies left outside the bundle), and a
 * map that cannot be read, leave their lines as they were: a crash is reported either way.
 */
export function sourceMappedStack(stack: string): string {
  const maps = new Map<string, ReturnType<typeof linkedMap>>();
  const mapFor = (file: string) => {
    if (!maps.has(file)) {
      try {
        maps.set(file, linkedMap(file));
      } catch {
        maps.set(file, null);
      }
    }
    return maps.get(file) ?? null;
  };
  return stack
    .split("\n")
    .map((line) => {
      if (!/^\s+at /.test(line)) return line;
      const position = FRAME_POSITION.exec(line);
      if (!position) return line;
      const [text, location = "", lineNumber = "", columnNumber = ""] = position;
      const file = location.startsWith("file:") ? fileURLToPath(location) : location;
      const linked = mapFor(file);
      if (!linked) return line;
      // findEntry counts lines and columns from 0, a stack from 1.
      const entry = linked.map.findEntry(Number(lineNumber) - 1, Number(columnNumber) - 1);
      if (!("originalSource" in entry)) return line;
      const original = fileURLToPath(new URL(entry.originalSource, linked.mapUrl));
      return line.replace(text, `${original}:${entry.originalLine + 1}:${entry.originalColumn + 1}`);
    })
    .join("\n");
}
