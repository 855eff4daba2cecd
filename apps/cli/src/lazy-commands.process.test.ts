import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../test/testing/run-cli";

/*
 * What the built `allot` loads for a command (decision 0067), seen by Node's module loader: hooks
 * registered before the bundle append each URL loaded to a file. The bundle's files are mapped to
 * their sources by the `// path` line esbuild writes before each module it bundled.
 */
const HOOKS = `import { appendFileSync } from "node:fs";
let log;
export function initialize(path) { log = path; }
export async function load(url, context, nextLoad) {
  appendFileSync(log, url + "\\n");
  return nextLoad(url, context);
}
`;
// In-thread hooks where Node has them (22.15+; Node 26 deprecates register() with a warning on
// stderr, which the exact-output checks would read), the worker-thread ones on Node 20.
const REGISTER = `import * as nodeModule from "node:module";
import { appendFileSync } from "node:fs";
const log = process.env.ALLOT_TEST_MODULE_LOG;
if (nodeModule.registerHooks)
  nodeModule.registerHooks({
    load(url, context, nextLoad) {
      appendFileSync(log, url + "\\n");
      return nextLoad(url, context);
    },
  });
else nodeModule.register("./hooks.mjs", import.meta.url, { data: log });
`;
const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const { version } = (await import("../package.json", { with: { type: "json" } })).default;

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "allot-module-loads-"));
  await writeFile(join(folder, "hooks.mjs"), HOOKS);
  await writeFile(join(folder, "register.mjs"), REGISTER);
});
afterAll(() => rm(folder, { recursive: true, force: true }));

let runs = 0;
/** Runs `allot args`: its output, and the sources of every bundled module the process loaded. */
async function loadsOf(args: string[]) {
  const log = join(folder, `run-${++runs}.log`);
  await writeFile(log, "");
  const run = await runCli(args, {
    env: {
      NODE_OPTIONS: `--import=${pathToFileURL(join(folder, "register.mjs")).href}`,
      ALLOT_TEST_MODULE_LOG: log,
    },
  });
  const files = (await readFile(log, "utf8"))
    .split("\n")
    .filter((url) => url.startsWith("file:"))
    .map((url) => fileURLToPath(url))
    .filter((path) => path.startsWith(DIST) && path.endsWith(".js"));
  const sources = new Set<string>();
  for (const file of files)
    for (const [, source] of (await readFile(file, "utf8")).matchAll(/^\/\/ (\S+\.[cm]?[jt]s)$/gm))
      sources.add(source as string);
  return { run, sources: [...sources] };
}

const commandModules = (sources: string[]) => sources.filter((source) => source.startsWith("src/commands/"));
const zod = (sources: string[]) => sources.filter((source) => /\/node_modules\/zod\//.test(source));

describe("the built allot loads only the command it runs", () => {
  it.each([
    { args: ["--help"], code: 0, prints: "Commands:" },
    { args: ["help"], code: 0, prints: "Commands:" },
    { args: [], code: 2, prints: "Commands:" },
    { args: ["--version"], code: 0, prints: version },
  ])("allot $args loads no command module, nor zod", async ({ args, code, prints }) => {
    const { run, sources } = await loadsOf(args);
    expect(run.code).toBe(code);
    expect(run.stdout + run.stderr).toContain(prints);
    expect(sources, "the bundle's files name their sources").toContain("src/main.ts");
    expect(commandModules(sources)).toEqual([]);
    expect(zod(sources)).toEqual([]);
  });

  it("allot keys --help and allot help keys load the keys command alone", async () => {
    for (const args of [
      ["keys", "--help"],
      ["help", "keys"],
    ]) {
      const { run, sources } = await loadsOf(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Usage: allot keys [options] [command]");
      expect(run.stdout).toContain("revoke-all");
      expect(commandModules(sources)).toEqual(["src/commands/keys.ts"]);
      expect(zod(sources)).not.toEqual([]);
    }
  });

  it("a mistyped command is refused with the suggestion, no module loaded", async () => {
    const { run, sources } = await loadsOf(["kyes"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "error: unknown command 'kyes'\n(Did you mean keys?)\n(run `allot --help` for its options and examples)\n",
    );
    expect(commandModules(sources)).toEqual([]);
  });
});
