import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { invitations } from "@allot/db/schema/invitations";
import { testEngines } from "@allot/db/testing/test-databases";
import { sha256 } from "@allot/domain/auth/token-digest";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invitationKit } from "../../../test/testing/invitation-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import { useTestMailbox } from "../../../test/testing/test-mailbox";

const MIGRATIONS = fileURLToPath(new URL("../../../../../packages/db/drizzle", import.meta.url));

/** The statements of the migration that added invitation secrets, as drizzle's migrator runs them. */
async function secretsMigration(): Promise<string[]> {
  const name = (await readdir(MIGRATIONS)).find((file) => file.endsWith("_invitation_secrets.sql"));
  if (!name) throw new Error(`no *_invitation_secrets.sql in ${MIGRATIONS}`);
  const text = await readFile(join(MIGRATIONS, name), "utf8");
  return text
    .split("--> statement-breakpoint")
    .map((statement) => statement.trim())
    .filter(Boolean);
}

/*
 * Invitations sent before the secrets existed were mailed the token every co-owner could list: the
 * migration must not keep that token usable as the invitee's credential (docs/decisions/0026).
 */
describe.each(testEngines())("invitations: the migration to mailed secrets (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const kit = invitationKit(t, mailbox);

  it("expires the pending invitations whose link was the listed token, and the inviter can send a new one", async () => {
    const owner = await t.user();
    const account = await kit.account(owner);
    const pendingAddress = kit.newAddress();
    const pending = await kit.invited(owner, account.id, pendingAddress);
    const accepted = await kit.invited(owner, account.id, kit.newAddress());
    expect((await kit.accept(accepted.secret)).statusCode).toBe(200);

    // Back to the table as it was before the migration, then the migration itself.
    await t.db.execute(
      sql.raw(
        'ALTER TABLE "invitations" DROP CONSTRAINT "invitations_secret_digest_unique", DROP COLUMN "secret_digest"',
      ),
    );
    for (const statement of await secretsMigration()) await t.db.execute(sql.raw(statement));

    const rows = await t.db.select().from(invitations);
    for (const row of rows) {
      expect(row.secretDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(row.secretDigest).not.toBe(sha256(row.token));
    }
    expect(new Set(rows.map((row) => row.secretDigest)).size).toBe(rows.length);
    expect((await kit.row(pending)).status).toBe("expired");
    expect((await kit.row(accepted)).status).toBe("accepted");

    // Neither the old link (the listed token) nor anything else opens them now.
    for (const value of [pending.handle, pending.secret, accepted.handle]) {
      expect((await kit.get(value)).statusCode).toBe(404);
      expect((await kit.accept(value)).statusCode).toBe(404);
    }
    expect((await kit.listForAccount(owner, account.id)).json()).toEqual([]);
    const again = await kit.invited(owner, account.id, pendingAddress);
    expect((await kit.get(again.secret)).json().status).toBe("pending");
  });
});
