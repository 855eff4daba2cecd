import { readEnv } from "./env";
import { reportError } from "./output";
import { createProgram } from "./program";

try {
  await createProgram(readEnv()).parseAsync(process.argv);
} catch (error) {
  reportError(error, process.argv.includes("--json"));
}
