import { createDatabase } from "@allot/db/create-database";
import { accountJobs } from "@allot/scheduler/account-jobs";
import { jobs } from "@allot/scheduler/jobs";
import { CommanderError } from "commander";
import { readEnv } from "./env";
import { createProgram, USAGE_EXIT_CODE } from "./program";

const openDatabase = async () => {
  const database = await createDatabase(readEnv().database);
  await database.migrate();
  return database;
};

try {
  await createProgram({ openDatabase, jobs, accountJobs }).parseAsync(process.argv);
} catch (error) {
  // Commander has already printed its message (or the help) on stderr.
  if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
  else {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  }
}
