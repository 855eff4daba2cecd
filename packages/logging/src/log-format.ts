/** How log lines are written: one JSON object a line, or one readable line (pino-pretty). */
export type LogFormat = "json" | "pretty";

/** LOG_FORMAT's values; unset, the format follows where stdout goes. */
export const LOG_FORMATS = ["json", "pretty"] as const;

/**
 * LOG_FORMAT when set; else readable lines for a person at a terminal, and JSON for whatever reads
 * a pipe or a file (a log collector, journald, a test).
 */
export function logFormatOf(setting: LogFormat | undefined, stdoutIsTerminal: boolean): LogFormat {
  return setting ?? (stdoutIsTerminal ? "pretty" : "json");
}
