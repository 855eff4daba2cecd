import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";
import pinoPretty from "pino-pretty";
import type { LogFormat } from "./log-format";

export interface LoggerSettings {
  /** LOG_LEVEL: fatal, error, warn, info, debug, trace or silent. */
  level: string;
  format: LogFormat;
  /** Colours in the readable format (a terminal). */
  colorize?: boolean;
  /** The server's request serializers and redaction (apps/api request-log.ts). */
  serializers?: LoggerOptions["serializers"];
  redact?: LoggerOptions["redact"];
  /** Where lines go: stdout unless given (tests). */
  destination?: DestinationStream;
}

// Shown in a request line's message in the readable format (request-line.ts writes them).
const REQUEST_FIELDS = ["method", "url", "statusCode", "responseTime", "remoteAddress"] as const;
// Said by the message of every line that has them (a scheduler run: `fund done`).
const JOB_FIELDS = ["job", "status"] as const;

/**
 * The one logger of a process (the server's is fastify's too): every line has an ISO `time` and a
 * `level` label, as JSON or, in a terminal, as one readable line. The readable format is
 * pino-pretty run in this process, not as a pino transport: a transport is a worker thread loading
 * its module by name at run time, which the server's esbuild bundle does not carry. Writes are
 * synchronous, so a line written just before the process exits is not lost.
 */
export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    ...(settings.serializers ? { serializers: settings.serializers } : {}),
    ...(settings.redact ? { redact: settings.redact } : {}),
  };
  if (settings.format === "json")
    return pino(options, settings.destination ?? pino.destination({ sync: true }));
  return pino(
    options,
    pinoPretty({
      colorize: settings.colorize ?? false,
      singleLine: true,
      translateTime: "SYS:yyyy-mm-dd HH:MM:ss.l",
      ignore: ["pid", "hostname", ...REQUEST_FIELDS, ...JOB_FIELDS].join(","),
      messageFormat: readableMessage,
      sync: true,
      ...(settings.destination ? { destination: settings.destination } : {}),
    }),
  );
}

/** A request line reads `GET /api/v1/users/me/ 200 3.1 ms (127.0.0.1)`; others, their message. */
function readableMessage(log: Record<string, unknown>, messageKey: string): string {
  const message = String(log[messageKey] ?? "");
  if (typeof log.method !== "string" || typeof log.statusCode !== "number") return message;
  return `${log.method} ${String(log.url)} ${log.statusCode} ${String(log.responseTime)} ms (${String(log.remoteAddress)})`;
}
