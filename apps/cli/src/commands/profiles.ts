import type { Command } from "commander";
import { endStoredSession } from "../api-session";
import { addExamples } from "../cli-conventions";
import { DEFAULT_PROFILE, readConfig } from "../config-file";
import {
  changeConfig,
  checkProfileName,
  chooseProfile,
  credentialKind,
  requireProfile,
} from "../config-profiles";
import type { CliEnv } from "../env";
import { displayWidth, padEndToWidth } from "../format/display-width";
import { shown } from "../format/terminal-text";
import { printJson, reportError } from "../output";

interface JsonOption {
  json?: boolean;
}

const KIND_WORDS = { api_key: "API key", session: "login session" } as const;

/** `allot profiles [list] | use NAME | remove NAME`: the named servers and credentials in the config file. */
export function registerProfilesCommands(profiles: Command, env: CliEnv): void {
  addExamples(profiles, ["allot profiles", "allot profiles use work", "allot profiles remove old --json"]);

  const list = profiles
    .command("list", { isDefault: true })
    .description("List the profiles; the current one (used when no --profile is given) is marked *")
    .option("--json", "print JSON for scripts")
    .action(async (options: JsonOption) => {
      try {
        await listProfiles(env, Boolean(options.json));
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });
  addExamples(list, ["allot profiles list", "allot profiles list --json"]);

  const use = profiles
    .command("use")
    .argument("<name>", "the profile")
    .description(
      "Make a profile the current one: commands use it when no --profile or ALLOT_PROFILE says otherwise",
    )
    .option("--json", "print JSON for scripts")
    .action(async (name: string, options: JsonOption) => {
      try {
        checkProfileName(name);
        await changeConfig(env.configPath, (config) => {
          requireProfile(config, name);
          return { ...config, current_profile: name };
        });
        if (options.json) printJson({ current_profile: name });
        else process.stdout.write(shown`Profile '${name}' is now the current one.\n`);
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });
  addExamples(use, ["allot profiles use work"]);

  const remove = profiles
    .command("remove")
    .argument("<name>", "the profile")
    .description("Remove a profile: its session is ended on the server, its URL and credentials forgotten")
    .option("--json", "print JSON for scripts")
    .action(async (name: string, options: JsonOption) => {
      try {
        checkProfileName(name);
        const profile = requireProfile(await readConfig(env.configPath), name);
        const endedOnServer = await endStoredSession(env, profile);
        const saved = await changeConfig(env.configPath, (config) => {
          const { [name]: _removed, ...rest } = config.profiles;
          const { current_profile, ...others } = config;
          return { ...others, profiles: rest, ...(current_profile === name ? {} : { current_profile }) };
        });
        if (options.json) {
          printJson({
            removed: name,
            ended_on_server: endedOnServer,
            current_profile: saved.current_profile ?? null,
          });
          return;
        }
        process.stdout.write(shown`Removed profile '${name}'.\n`);
        if (saved.current_profile === undefined && Object.keys(saved.profiles).length > 0)
          process.stdout.write(
            shown`No profile is current now: choose one with \`allot profiles use NAME\` (else '${DEFAULT_PROFILE}' is used).\n`,
          );
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });
  addExamples(remove, ["allot profiles remove staging"]);
}

async function listProfiles(env: CliEnv, json: boolean): Promise<void> {
  const config = await readConfig(env.configPath);
  // The one a command would use now, ALLOT_PROFILE included.
  const active = chooseProfile(env, undefined, config).name;
  const rows = Object.entries(config.profiles)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, profile]) => ({
      name,
      current: name === active,
      base_url: profile.base_url ?? null,
      username: profile.username ?? null,
      credential: credentialKind(profile),
    }));
  if (json) {
    printJson(rows);
    return;
  }
  if (rows.length === 0) {
    process.stdout.write("No profiles yet: run `allot login --email EMAIL` to create one.\n");
    return;
  }
  const cells = rows.map((row) => [
    row.current ? "*" : " ",
    row.name,
    row.base_url ?? "-",
    row.username ?? "-",
    row.credential ? KIND_WORDS[row.credential] : "logged out",
  ]);
  const header = [" ", "PROFILE", "URL", "USER", "CREDENTIAL"];
  const widths = header.map((title, i) =>
    Math.max(title.length, ...cells.map((cell) => displayWidth(cell[i] ?? ""))),
  );
  for (const line of [header, ...cells])
    process.stdout.write(
      shown`${line
        .map((cell, i) => padEndToWidth(cell, widths[i] ?? 0))
        .join("  ")
        .trimEnd()}\n`,
    );
}
