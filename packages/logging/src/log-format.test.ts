import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./create-logger";
import { logFormatOf } from "./log-format";

function written(format: "json" | "pretty") {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const log = createLogger({ level: "info", format, destination });
  return { log, lines };
}

describe("the log format", () => {
  it("is readable on a terminal and JSON elsewhere, unless LOG_FORMAT says", () => {
    expect(logFormatOf(undefined, true)).toBe("pretty");
    expect(logFormatOf(undefined, false)).toBe("json");
    expect(logFormatOf("json", true)).toBe("json");
    expect(logFormatOf("pretty", false)).toBe("pretty");
  });

  it("writes JSON lines with an ISO time and a level label", () => {
    const { log, lines } = written("json");
    log.warn({ job: "fund" }, "fund retrying");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: "warn",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      job: "fund",
      msg: "fund retrying",
    });
  });

  it("writes one readable line a request in the pretty format", () => {
    const { log, lines } = written("pretty");
    log.child({ reqId: "trace-7" }).info(
      {
        method: "GET",
        url: "/api/v1/users/me/",
        statusCode: 200,
        responseTime: 3.1,
        remoteAddress: "127.0.0.1",
      },
      "request completed",
    );
    log.info({ job: "fund", status: "done", result: { accounts: 1 } }, "fund done");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/v1\/users\/me\/ 200 3\.1 ms \(127\.0\.0\.1\) \{"reqId":"trace-7"\}$/,
    );
    expect(lines[1]).toMatch(/INFO: fund done \{"result":\{"accounts":1\}\}$/);
  });
});
