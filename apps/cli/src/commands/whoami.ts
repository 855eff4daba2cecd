import type { Command } from "commander";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import type { CliEnv } from "../env";
import { printJson, printRecord, reportError } from "../output";

/** `allot whoami`: the caller's user, as the API sees it (GET /api/v1/users/me/). */
export function registerWhoamiCommand(program: Command, env: CliEnv): void {
  addApiOptions(program.command("whoami").description("Show the user you are authenticated as"))
    .option("--json", "print JSON for scripts")
    .action(async (options: ApiOptions & { json?: boolean }) => {
      try {
        const client = await openApiClient(env, options);
        const me = await client.users.getMe();
        if (options.json) printJson(me);
        else
          printRecord({
            username: me.username,
            email: me.email,
            name: me.name,
            timezone: me.timezone,
            "default bank account": me.default_bank_account,
          });
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });
}
