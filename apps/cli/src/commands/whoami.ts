import type { Command } from "commander";
import { type ApiOptions, addApiOptions, type Credential, openApiSession } from "../api-session";
import { addExamples } from "../cli-conventions";
import type { CliEnv } from "../env";
import { printJson, printRecord, reportError } from "../output";

const SOURCES = { flag: "--api-key", environment: "ALLOT_API_KEY", profile: "the profile" } as const;

/** `allot whoami`: the caller as the API sees it (GET /api/v1/users/me/), and how the CLI got there. */
export function registerWhoamiCommand(command: Command, env: CliEnv): void {
  const whoami = addApiOptions(command)
    .option("--json", "print JSON for scripts")
    .action(async (options: ApiOptions & { json?: boolean }) => {
      try {
        const { client, target } = await openApiSession(env, options);
        const me = await client.users.getMe();
        const credential = target.credential as Credential;
        if (options.json) {
          printJson({
            ...me,
            profile: target.profile ? target.profileName : null,
            base_url: target.baseUrl,
            credential: credential.kind,
            credential_source: credential.source,
          });
          return;
        }
        printRecord({
          username: me.username,
          email: me.email,
          name: me.name,
          timezone: me.timezone,
          "default bank account": me.default_bank_account,
          profile: target.profile ? target.profileName : null,
          url: target.baseUrl,
          credential:
            credential.kind === "session"
              ? "login session (from the profile)"
              : `API key (from ${SOURCES[credential.source]})`,
        });
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });
  addExamples(whoami, [
    "allot whoami",
    "allot whoami --profile work --json",
    "ALLOT_URL=https://allot.example.com ALLOT_API_KEY=… allot whoami",
  ]);
}
