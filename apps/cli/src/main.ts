import { CommanderError } from "commander";
import { exitCodeOfCommanderError } from "./cli-conventions";
import { readEnv } from "./env";
import { reportError } from "./output";
import { createProgram } from "./program";

// A reader that stops early (`allot … | head`) closes the pipe: stop quietly, as other tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

try {
  await createProgram(readEnv()).parseAsync(process.argv);
} catch (error) {
  // Commander has already printed its message (and the hint to --help); only the status is left.
  if (error instanceof CommanderError) process.exitCode = exitCodeOfCommanderError(error);
  else reportError(error, process.argv.includes("--json"));
}
