import type { Command } from "commander";
import { addExamples } from "../cli-conventions";
import type { CliEnv } from "../env";
import { shown } from "../format/terminal-text";
import { printJson, printRecord, reportError } from "../output";
import { readPassword } from "../read-password";
import { registerAdminMailCommand } from "./admin-mail";

interface JsonOption {
  json?: boolean;
}

// The database layer loads lazily (about a second): commands that talk to the API never need it.
const database = () => import("../admin-database");

/** `allot admin …`: work on the database directly, with the server's DATABASE_URL / DATA_DIR. */
export function registerAdminCommands(admin: Command, env: CliEnv): void {
  const createUser = admin
    .command("create-user")
    .description("Create an active user with a password (the username is the email, lower-cased)")
    .requiredOption("--email <email>", "email address, also the username")
    .option("--password <password>", "password (omit it to type it, or to pipe it on stdin)")
    .option("--name <name>", "display name", "")
    .option("--staff", "give staff rights", false)
    .option("--timezone <zone>", "IANA time zone, e.g. Europe/Berlin (default: America/Los_Angeles)")
    .option("--json", "print JSON for scripts")
    .action(
      async (
        options: JsonOption & {
          email: string;
          password?: string;
          name: string;
          staff: boolean;
          timezone?: string;
        },
      ) => {
        try {
          const { withMigratedDatabase, refuseIfDatabaseInUse } = await database();
          // Not a password typed in vain: the lock is checked again when the database opens.
          if (options.password === undefined) refuseIfDatabaseInUse(env);
          const password = options.password ?? (await readPassword());
          const { createUser } = await import("@allot/domain/users/create-user");
          const { internalContext } = await import("@allot/domain/shared/use-case-context");
          const user = await withMigratedDatabase(env, "allot admin create-user", (db) =>
            createUser(internalContext(db, "cli"), {
              email: options.email,
              password,
              name: options.name,
              staff: options.staff,
              timezone: options.timezone,
            }),
          );
          const view = {
            username: user.username,
            email: user.email,
            is_staff: user.isStaff,
            timezone: user.timezone,
          };
          if (options.json) printJson(view);
          else printRecord(view);
        } catch (error) {
          reportError(error, Boolean(options.json));
        }
      },
    );

  const createBank = admin
    .command("create-bank")
    .description("Create a bank (reference data every user picks from)")
    .requiredOption("--name <name>", "bank name")
    .requiredOption("--currency <code>", "default currency, ISO 4217 (e.g. USD)")
    .option("--routing-number <number>", "routing number")
    .option("--json", "print JSON for scripts")
    .action(async (options: JsonOption & { name: string; currency: string; routingNumber?: string }) => {
      try {
        const { createBank } = await import("@allot/domain/banks/create-bank");
        const { internalContext } = await import("@allot/domain/shared/use-case-context");
        const { withMigratedDatabase } = await database();
        const bank = await withMigratedDatabase(env, "allot admin create-bank", (db) =>
          createBank(internalContext(db, "cli"), {
            name: options.name,
            currency: options.currency,
            routingNumber: options.routingNumber,
          }),
        );
        const view = {
          id: bank.id,
          name: bank.name,
          routing_number: bank.routing_number,
          default_currency: bank.default_currency,
        };
        if (options.json) printJson(view);
        else printRecord(view);
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });

  const migrate = admin
    .command("migrate")
    .description("Apply the database migrations (the server also applies them when it starts)")
    .option("--json", "print JSON for scripts")
    .action(async (options: JsonOption) => {
      try {
        const { withMigratedDatabase } = await database();
        await withMigratedDatabase(env, "allot admin migrate", async () => {});
        const where = "url" in env.database ? "PostgreSQL at DATABASE_URL" : env.database.dataDir;
        if (options.json)
          printJson({ migrated: true, engine: "url" in env.database ? "postgres" : "pglite" });
        else process.stdout.write(shown`Migrations applied (${where}).\n`);
      } catch (error) {
        reportError(error, Boolean(options.json));
      }
    });

  registerAdminMailCommand(admin, env);

  addExamples(admin, [
    "allot admin migrate",
    "allot admin mail --to sam@example.com --last 1",
    "allot admin create-user --email me@example.com --name Me",
    "DATABASE_URL=postgres://… allot admin create-bank --name 'First Bank' --currency USD",
  ]);
  addExamples(createUser, [
    "allot admin create-user --email me@example.com --name Me      # the password is asked for",
    "printf '%s\\n' \"$PASSWORD\" | allot admin create-user --email ops@example.com --staff --json",
    "allot admin create-user --email me@example.com --timezone Europe/Berlin",
  ]);
  addExamples(createBank, [
    "allot admin create-bank --name 'First Bank' --currency USD --routing-number 021000021",
  ]);
  addExamples(migrate, ["allot admin migrate", "DATA_DIR=/srv/allot allot admin migrate --json"]);
}
