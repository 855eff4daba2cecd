import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { bareChildEnv } from "./env";
import type { Figure } from "./figures";
import { median } from "./median";
import { login, postJson } from "./seed";

/*
 * How long `allot` takes to start (issue 20): `allot --help`, and `allot whoami` (start, one
 * authenticated GET /users/me/ through the SDK to the real API, print, exit), each timed from spawn
 * to exit. The built command an install gives (apps/cli/dist, built by the runner) beside the same
 * commands from source through tsx, in the same run. And `pnpm cli --help` as typed in the
 * repository (issue 32: pnpm, then the built command, decision 0060), beside what it ran before
 * (pnpm, then tsx on the sources) and pnpm's own start-up (`pnpm --version`), which it cannot go
 * under.
 */

const run = promisify(execFile);
const CLI_DIR = dirname(fileURLToPath(import.meta.resolve("@allot/cli/package.json")));
const REPOSITORY = join(CLI_DIR, "../..");
const BUILT = [join(CLI_DIR, "dist/allot.js")];
const FROM_SOURCE = ["--import", import.meta.resolve("tsx"), join(CLI_DIR, "src/main.ts")];
/** Commands run by `pnpm` (corepack's): each with the arguments after `pnpm`, from the repository. */
const THROUGH_PNPM = {
  /** The root `cli` script: scripts/run-cli.mjs, then the bundle. */
  pnpmCli: ["--silent", "cli"],
  /** What `pnpm cli` ran before decision 0060. */
  pnpmTsx: ["--silent", "--filter", "@allot/cli", "exec", "tsx", "src/main.ts"],
  pnpmAlone: ["--version"],
};

export interface CliStartupBenchContext {
  apiUrl: string;
  owner: { email: string };
  /** Spawns of each command; the median is reported. */
  rounds: number;
  environment: string;
}

export async function benchCliStartup(
  context: CliStartupBenchContext,
): Promise<{ report: string; figures: Figure[]; problems: string[] }> {
  const home = await mkdtemp(join(tmpdir(), "allot-bench-cli-"));
  try {
    const token = await login(context.apiUrl, context.owner.email);
    const { key } = (await postJson(
      context.apiUrl,
      "/api/v1/users/me/api-keys/",
      token,
      { name: "cli start-up bench" },
      201,
    )) as { key: string };
    const env = bareChildEnv({ HOME: home, ALLOT_BASE_URL: context.apiUrl, ALLOT_API_KEY: key });

    const problems: string[] = [];
    // pnpm finds its corepack copy under the real home.
    const pnpmEnv = bareChildEnv({
      ALLOT_BASE_URL: context.apiUrl,
      ALLOT_API_KEY: key,
      COREPACK_ENABLE_DOWNLOAD_PROMPT: "0",
    });
    const timed = async (
      label: string,
      command: string[],
      args: string[],
      through: "node" | "pnpm" = "node",
    ) => {
      const times: number[] = [];
      for (let round = 0; round < context.rounds; round++) {
        const started = performance.now();
        const { stdout } =
          through === "node"
            ? await run(process.execPath, [...command, ...args], { env })
            : await run("pnpm", [...command, ...args], { env: pnpmEnv, cwd: REPOSITORY });
        times.push(performance.now() - started);
        if (args[0] === "whoami" && JSON.parse(stdout).email !== context.owner.email)
          problems.push(`${label}: whoami answered someone else`);
      }
      return median(times);
    };
    // Alternating built and source, so neither gets a quieter moment of the machine.
    const help = {
      built: await timed("built --help", BUILT, ["--help"]),
      source: await timed("tsx --help", FROM_SOURCE, ["--help"]),
    };
    const pnpm = {
      cli: await timed("pnpm cli --help", THROUGH_PNPM.pnpmCli, ["--help"], "pnpm"),
      tsx: await timed("pnpm exec tsx --help", THROUGH_PNPM.pnpmTsx, ["--help"], "pnpm"),
      alone: await timed("pnpm --version", THROUGH_PNPM.pnpmAlone, [], "pnpm"),
    };
    const whoami = {
      built: await timed("built whoami", BUILT, ["whoami", "--json"]),
      source: await timed("tsx whoami", FROM_SOURCE, ["whoami", "--json"]),
    };

    const figure = (
      id: string,
      scenario: string,
      value: number,
      limit: number | null,
      note = "from source through tsx: the figure before the build",
    ): Figure => ({
      id: `cli.${id}`,
      group: "cli",
      scenario,
      value,
      unit: "ms",
      detail: null,
      threshold: limit === null ? null : { comparison: "<", value: limit },
      note: limit === null ? note : null,
    });
    const figures = [
      figure("help", "cli: `allot --help`, built, spawn to exit (median)", help.built, 300),
      figure("whoami", "cli: `allot whoami`, built: start, first request, exit (median)", whoami.built, 500),
      figure("help-from-source", "cli: `allot --help` through tsx (median)", help.source, null),
      figure("whoami-from-source", "cli: `allot whoami` through tsx (median)", whoami.source, null),
      figure(
        "pnpm-cli-help",
        "cli: `pnpm cli --help` in the repository, the built command (median)",
        pnpm.cli,
        600,
      ),
      figure(
        "pnpm-cli-help-from-source",
        "cli: `pnpm --filter @allot/cli exec tsx src/main.ts --help` (median)",
        pnpm.tsx,
        null,
        "what `pnpm cli` ran before decision 0060",
      ),
      figure(
        "pnpm-alone",
        "cli: `pnpm --version`, pnpm's own start-up (median)",
        pnpm.alone,
        null,
        "pnpm alone",
      ),
    ];
    const ms = (value: number) => `${Math.round(value).toLocaleString("en")}`;
    const report = [
      `\`allot\` start-up, from spawn to exit, median of ${context.rounds} spawns each; ${context.environment}`,
      "",
      "| command | built (`npm i -g`, ms) | from source via tsx (`pnpm cli`, ms) | target (built) |",
      "|---|---:|---:|---|",
      `| \`allot --help\` | ${ms(help.built)} | ${ms(help.source)} | < 300 ms |`,
      `| \`allot whoami --json\` (one authenticated request) | ${ms(whoami.built)} | ${ms(whoami.source)} | < 500 ms |`,
      "",
      "| in the repository | ms | target |",
      "|---|---:|---|",
      `| \`pnpm cli --help\` (pnpm, then the built command) | ${ms(pnpm.cli)} | < 600 ms |`,
      `| before: \`pnpm --filter @allot/cli exec tsx src/main.ts --help\` | ${ms(pnpm.tsx)} | |`,
      `| \`pnpm --version\` (pnpm's own start-up) | ${ms(pnpm.alone)} | |`,
      "",
    ].join("\n");
    return { report, figures, problems };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
