import { Writable } from "node:stream";
import type { Logger } from "pino";
import { createLogger } from "../../src/create-logger";

/** A real logger (JSON format) whose lines the test reads back, parsed, and as written. */
export function recordingLog(level = "info"): {
  log: Logger;
  lines: Record<string, unknown>[];
  text(): string;
} {
  const written: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      written.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const log = createLogger({ level, format: "json", destination });
  return {
    log,
    get lines() {
      return written.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    text: () => written.join("\n"),
  };
}
