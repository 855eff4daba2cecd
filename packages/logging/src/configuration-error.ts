import { sourceMappedStack } from "./source-mapped-stack";

/**
 * A start-up failure its reader can fix from the message alone: a missing or bad variable, a
 * database or Redis that cannot be reached, a port in use. The message says what is wrong and
 * names the variable that fixes it; it is printed plainly, without a stack.
 */
export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

/**
 * Ends a process whose start failed: a ConfigurationError as its message alone (at most two
 * lines), anything else (a real crash) with its stack led back to the sources. Exit code 1 either
 * way.
 */
export function exitOnStartupFailure(error: unknown): never {
  if (error instanceof ConfigurationError) {
    const [first = "", ...rest] = error.message.split("\n");
    process.stderr.write(`${first}\n${rest.length > 0 ? `${rest.join(" ")}\n` : ""}`);
  } else {
    const report = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`${sourceMappedStack(report)}\n`);
  }
  process.exit(1);
}

/** The environment's validation issues (zod's) as one line naming each variable. */
export function invalidEnvironment(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): ConfigurationError {
  const problems = issues.map(
    (issue) => `${issue.path.map(String).join(".") || "environment"}: ${issue.message}`,
  );
  return new ConfigurationError(
    problems.length === 1
      ? `Invalid environment variable ${problems[0]}`
      : `Invalid environment variables: ${problems.join("; ")}`,
  );
}
