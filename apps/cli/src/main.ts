import { CommanderError } from "commander";
import { exitCodeOfCommanderError } from "./cli-conventions";
import { loadInvokedCommand } from "./lazy-commands";
import { createProgram } from "./program";

// A reader that stops early (`allot … | head`) closes the pipe: stop quietly, as other tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

// Imported when needed, as the commands are (decision 0067): `allot --help` loads neither the env's
// validation (zod) nor what errors are reported with (the SDK's, the database's).
try {
  const program = createProgram(async () => (await import("./env")).readEnv());
  await loadInvokedCommand(program, process.argv.slice(2));
  await program.parseAsync(process.argv);
} catch (error) {
  // Commander has already printed its message (and the hint to --help); only the status is left.
  if (error instanceof CommanderError) process.exitCode = exitCodeOfCommanderError(error);
  else (await import("./output")).reportError(error, process.argv.includes("--json"));
}
