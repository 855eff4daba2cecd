import type { Database } from "@allot/db/create-database";
import { describe, expect, it } from "vitest";
import { internalContext, type PublicContext } from "./use-case-context";

/*
 * A use case sees the services it names and no other. tsc (`pnpm check`) fails on an
 * @ts-expect-error with no error below it, so each one here is a check that the types refuse;
 * the assertions show what would happen at run time if they did not.
 */

/** A use case that named the public address only. */
const linkOf = ({ services }: PublicContext<"publicBaseUrl">, token: string) =>
  `${services.publicBaseUrl}/links/${token}`;

/** The same use case, reaching for a service it did not name. */
const sealedLinkOf = ({ services }: PublicContext<"publicBaseUrl">, token: string) =>
  // @ts-expect-error: the vault was not named, so it is not on this use case's services
  services.vault.seal("email-body", `${services.publicBaseUrl}/links/${token}`);

// The use cases here read no database: internalContext only carries it.
const db = {} as Database;

describe("a use case's services", () => {
  it("are the ones its context carries, under the names it picked", () => {
    const ctx = internalContext(db, "cli", { publicBaseUrl: "https://allot.example" });
    expect(linkOf(ctx, "t0k3n")).toBe("https://allot.example/links/t0k3n");
  });

  it("leave out one it did not pick: reading it does not compile, and would throw without it", () => {
    const ctx = internalContext(db, "cli", { publicBaseUrl: "https://allot.example" });
    expect(() => sealedLinkOf(ctx, "t0k3n")).toThrow(TypeError);
  });

  it("must all be on the context it is called with", () => {
    // @ts-expect-error: a context without the public address cannot call a use case that reads it
    expect(linkOf(internalContext(db, "scheduler"), "t0k3n")).toBe("undefined/links/t0k3n");
  });
});
