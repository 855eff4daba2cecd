import type { Command } from "commander";
import { createApiClient, normalizeBaseUrl, resolveBaseUrl } from "../api-session";
import { forgetLogin, readConfig, writeConfig } from "../config-file";
import type { CliEnv } from "../env";
import { printJson, printRecord, reportError } from "../output";
import { readPassword } from "../read-password";

/** `allot login` / `allot logout`: a password session kept in the config file. */
export function registerSessionCommands(program: Command, env: CliEnv): void {
  program
    .command("login")
    .description("Log in with email and password; the session is kept in the config file for later commands")
    .requiredOption("--email <email>", "your email")
    .option("--password <password>", "password (omit it to type it, or to pipe it on stdin)")
    .option(
      "--base-url <url>",
      "API server (default: ALLOT_BASE_URL, the previous login's, or the local one)",
    )
    .option("--json", "print JSON for scripts")
    .action(async (options: { email: string; password?: string; baseUrl?: string; json?: boolean }) => {
      try {
        const config = await readConfig(env.configPath);
        const baseUrl = options.baseUrl ? normalizeBaseUrl(options.baseUrl) : resolveBaseUrl(env, {}, config);
        const password = options.password ?? (await readPassword());
        const session = await (await createApiClient({ baseUrl })).auth.login({
          email: options.email,
          password,
        });
        const me = await (await createApiClient({ baseUrl, auth: { bearer: session.access } })).users.getMe();
        await writeConfig(env.configPath, {
          ...config,
          base_url: baseUrl,
          username: me.username,
          access_token: session.access,
          refresh_token: session.refreshToken,
        });
        const result = { base_url: baseUrl, username: me.username, email: me.email };
        if (options.json) printJson(result);
        else process.stdout.write(`Logged in to ${baseUrl} as ${me.username}.\n`);
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });

  program
    .command("logout")
    .description("End the stored session on the server and forget it here")
    .option("--json", "print JSON for scripts")
    .action(async (options: { json?: boolean }) => {
      try {
        const config = await readConfig(env.configPath);
        let endedOnServer = false;
        if (config.base_url && config.refresh_token) {
          // Forgetting the tokens locally matters most; a server that cannot be reached is only a warning.
          const client = await createApiClient({ baseUrl: config.base_url });
          endedOnServer = await client.auth.logout({ refreshToken: config.refresh_token }).then(
            () => true,
            (error: Error) => {
              process.stderr.write(`warning: could not end the session on the server: ${error.message}\n`);
              return false;
            },
          );
        }
        await forgetLogin(env.configPath, config);
        const result = { logged_out: Boolean(config.access_token), ended_on_server: endedOnServer };
        if (options.json) printJson(result);
        else if (result.logged_out) printRecord({ "logged out of": config.base_url });
        else process.stdout.write("Not logged in.\n");
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });
}
