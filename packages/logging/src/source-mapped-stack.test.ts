import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import { afterAll, describe, expect, it, vi } from "vitest";
import { exitOnStartupFailure } from "./configuration-error";
import { sourceMappedStack } from "./source-mapped-stack";

// A bundle made as the server's is (esbuild, whitespace minified, a linked map): the reference
// for where each frame came from is esbuild's map, read by Node's own SourceMap.
const folder = mkdtempSync(join(tmpdir(), "allot-source-map-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
mkdirSync(join(folder, "src"));
const source = join(folder, "src", "start.ts");
writeFileSync(
  source,
  [
    "type Settings = { port: number };",
    "export function openListener(settings: Settings): never {",
    '  throw new Error("cannot listen on " + settings.port);',
    "}",
    "export function start(): never {",
    "  return openListener({ port: 8080 });",
    "}",
    "",
  ].join("\n"),
);
const bundle = join(folder, "dist", "main.js");
buildSync({
  entryPoints: [source],
  outfile: bundle,
  bundle: true,
  format: "esm",
  platform: "node",
  minifyWhitespace: true,
  sourcemap: "linked",
  logLevel: "silent",
});

/** The stack of the bundle's crash as plain Node writes it (vitest would map the frames itself). */
function crashStack(): string {
  const script = `import(${JSON.stringify(pathToFileURL(bundle).href)}).then(({ start }) => start())
    .catch((error) => process.stdout.write(error.stack))`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
}

describe("sourceMappedStack", () => {
  it("leads each frame in the bundle back to its source file, line and column", () => {
    const stack = crashStack();
    // Whitespace-minified, the bundle is one line: the raw frames say nothing of the sources.
    expect(stack).toMatch(/main\.js:1:\d+\)/);
    const mapped = sourceMappedStack(stack);
    expect(mapped.split("\n")[0]).toBe("Error: cannot listen on 8080");
    expect(mapped).toContain(`at openListener (${source}:3:9)`);
    expect(mapped).toContain(`at start (${source}:6:10)`);
    expect(mapped).not.toContain("main.js");
  });

  it("leaves frames without a map, and stacks of files that are gone, as they were", () => {
    const stack = [
      "Error: boom",
      "    at listOnTimeout (node:internal/timers:581:17)",
      "    at run (/nowhere/at/all.js:10:5)",
      `    at file://${source}:1:1`,
    ].join("\n");
    expect(sourceMappedStack(stack)).toBe(stack);
  });
});

describe("exitOnStartupFailure", () => {
  it("prints a crash with its stack led back to the sources, and exits 1", () => {
    const error = new Error("crashed");
    error.stack = crashStack();
    const written: string[] = [];
    const write = vi.spyOn(process.stderr, "write").mockImplementation((text) => {
      written.push(String(text));
      return true;
    });
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    try {
      exitOnStartupFailure(error);
      expect(exit).toHaveBeenCalledWith(1);
    } finally {
      write.mockRestore();
      exit.mockRestore();
    }
    expect(written.join("")).toContain(`at openListener (${source}:3:9)`);
  });
});
