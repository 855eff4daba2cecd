import { describe, expect, it } from "vitest";
import { z } from "zod";
import { invalidEnvironment } from "./configuration-error";

describe("invalidEnvironment", () => {
  const schema = z.object({
    PORT: z.coerce.number().int().max(65535),
    LOG_LEVEL: z.enum(["info", "debug"]),
  });

  it("names each variable on one line, never its value", () => {
    const one = schema.safeParse({ PORT: "70000", LOG_LEVEL: "info" });
    expect(invalidEnvironment(one.error?.issues ?? []).message).toBe(
      "Invalid environment variable PORT: Too big: expected number to be <=65535",
    );
    const two = schema.safeParse({ PORT: "s3cret-port", LOG_LEVEL: "loud" });
    const message = invalidEnvironment(two.error?.issues ?? []).message;
    expect(message).toMatch(/^Invalid environment variables: PORT: .*; LOG_LEVEL: /);
    expect(message).not.toContain("\n");
    expect(message).not.toContain("s3cret-port");
  });
});
