import { describe, expect, it } from "vitest";
import { loggableError } from "./loggable-error";

describe("loggableError", () => {
  it("keeps the kind of failure and drops the statement's values, however large", () => {
    const secret = "4111-1111-1111-1111";
    const parameters = Array.from({ length: 70_000 }, (_, n) => `${secret}-${n}`);
    const database = Object.assign(
      new Error(`invalid input syntax for type integer: "${secret.repeat(500)}"`),
      {
        code: "22P02",
        severity: "ERROR",
        routine: "pg_strtoint32_safe",
        query: `insert into t values ${parameters.map((_, n) => `($${n + 1})`).join(",")}`,
        parameters,
        args: parameters,
      },
    );
    const wrapped = Object.assign(
      new Error(`Failed query: insert into t values ($1)\nparams: ${parameters.join(",")}`, {
        cause: database,
      }),
      { query: database.query, params: parameters },
    );
    const logged = loggableError(wrapped);
    const text = JSON.stringify(logged);
    expect(text.length).toBeLessThan(5_000);
    expect(text).not.toContain(`${secret}-`);
    expect(text).not.toMatch(/"(query|params|parameters|args)"/);
    expect(logged).toMatchObject({
      type: "Error",
      message: "Failed query: insert into t values ($1)",
      cause: { code: "22P02", severity: "ERROR", routine: "pg_strtoint32_safe" },
    });
    expect(logged.cause?.message).toMatch(/^invalid input syntax for type integer: .*… \(cut\)$/);
    expect(logged.stack).toMatch(/^\s+at /);
  });

  it("follows a cause chain only a few levels and reads what is not an Error", () => {
    let error: unknown = "root";
    for (let n = 0; n < 10; n += 1) error = new Error(`level ${n}`, { cause: error });
    let depth = 0;
    for (let logged = loggableError(error); logged.cause; logged = logged.cause) depth += 1;
    expect(depth).toBe(3);
    expect(loggableError({ parameters: ["x"] })).toEqual({ type: "object", message: "[object Object]" });
  });
});
