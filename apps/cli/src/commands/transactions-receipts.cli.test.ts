import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testEngines } from "@allot/db/testing/test-databases";
import { sampleJpeg, samplePdf, samplePng } from "@allot/domain/testing/sample-files";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";

// Each test runs the real CLI several times (one to three seconds each to start on a busy machine).
const SLOW = { timeout: 300_000 };

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const png = samplePng(3, 2);
const jpeg = sampleJpeg();
const pdf = samplePdf();
const URL_OF = (id: string, field: string) => `http://allot.test/api/v1/transactions/${id}/${field}/`;

interface Row {
  id: string;
  description: string;
  image: string | null;
  image_width: number | null;
  image_height: number | null;
  document: string | null;
}

describe.each(testEngines())(
  "allot transactions attach/detach/download against a running API (%s)",
  (engine) => {
    const server = useCliServer(engine);
    let folder: string;

    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), "allot-cli-receipts-"));
      await writeFile(join(folder, "receipt.png"), png);
      await writeFile(join(folder, "till.jpg"), jpeg);
      await writeFile(join(folder, "invoice.pdf"), pdf);
    });
    afterAll(() => rm(folder, { recursive: true, force: true }));
    const file = (name: string) => join(folder, name);

    /** A user with an account holding one transaction, and `allot transactions …` as them. */
    async function setUp() {
      const { client, allot: run } = await server.apiKeyUser();
      const bank = await server.bank();
      const account = await client.bankAccounts.create({
        name: "Checking",
        bank: bank.id,
        posted_balance: "100.00",
      });
      const transaction = await client.transactions.create({
        bank_account: account.id,
        amount: "-23.40",
        transaction_date: "2026-02-03",
        transaction_type: "signature_purchase",
        raw_description: "HARDWARE STORE",
      });
      const allot = (...args: string[]) => run(["transactions", ...args]);
      /** `allot transactions …` run in the folder `cwd`. */
      const allotIn = (cwd: string, ...args: string[]) => run(["transactions", ...args], { cwd });
      /** A --json run that must succeed. */
      const json = async <T = Row>(...args: string[]) => {
        const result = await allot(...args, "--json");
        expect(result.stderr).toBe("");
        expect(result.code).toBe(0);
        return result.json<T>();
      };
      return { client, account, transaction, allot, allotIn, json };
    }

    it(
      "attaches an image and a document, shows their URLs and size, and downloads each byte for byte",
      SLOW,
      async () => {
        const { transaction, allot, json } = await setUp();
        const { id } = transaction;
        expect(
          await json("attach", id, "--image", file("receipt.png"), "--document", file("invoice.pdf")),
        ).toMatchObject({
          id,
          image: URL_OF(id, "image"),
          image_width: 3,
          image_height: 2,
          document: URL_OF(id, "document"),
        });

        const shown = await allot("show", id);
        expect(shown.stderr).toBe("");
        expect(shown.stdout).toMatch(new RegExp(`^Image\\s+${URL_OF(id, "image")} \\(3×2\\)$`, "m"));
        expect(shown.stdout).toMatch(new RegExp(`^Document\\s+${URL_OF(id, "document")}$`, "m"));

        const saved = await json<Record<string, unknown>>("download", id, "--image", "-o", file("out.png"));
        expect(saved).toEqual({
          id,
          field: "image",
          path: file("out.png"),
          filename: "receipt.png",
          content_type: "image/png",
          size: png.length,
        });
        expect(sha256(await readFile(file("out.png")))).toBe(sha256(png));

        const piped = await allot("download", id, "--document");
        expect(piped.stderr).toBe("");
        expect(piped.code).toBe(0);
        expect(sha256(piped.stdoutBytes)).toBe(sha256(pdf));

        // Attaching again replaces: a JPEG now, 1×1.
        const replaced = await allot("attach", id, "--image", file("till.jpg"));
        expect(replaced.code, replaced.stderr).toBe(0);
        expect(replaced.stdout).toMatch(new RegExp(`^Image\\s+${URL_OF(id, "image")} \\(1×1\\)$`, "m"));
        const people = await allot("download", id, "--image", "-o", file("out.jpg"));
        expect(people.stdout).toBe(
          `Saved the image of ${id} to ${file("out.jpg")} (${jpeg.length} bytes, image/jpeg).\n`,
        );
        expect(sha256(await readFile(file("out.jpg")))).toBe(sha256(jpeg));
      },
    );

    it("detaches files, after which a download is the API's 404; create takes files too", SLOW, async () => {
      const { account, transaction, allot, json } = await setUp();
      const { id } = transaction;
      await json("attach", id, "--image", file("receipt.png"), "--document", file("invoice.pdf"));
      expect(await json("detach", id, "--image")).toMatchObject({
        image: null,
        image_width: null,
        document: URL_OF(id, "document"),
      });
      const missing = await allot("download", id, "--image", "-o", file("none.png"), "--json");
      expect(missing.code).toBe(1);
      expect(missing.errorJson()).toMatchObject({ code: "not_found" });
      await expect(readFile(file("none.png"))).rejects.toMatchObject({ code: "ENOENT" });
      expect(await json("detach", id, "--document")).toMatchObject({ image: null, document: null });

      const created = await json(
        "create",
        ...["--account", account.id, "--amount", "-5", "--date", "2026-02-04", "--description", "Kiosk"],
        ...["--image", file("till.jpg")],
      );
      expect(created).toMatchObject({
        description: "Kiosk",
        image: URL_OF(created.id, "image"),
        image_width: 1,
      });
    });

    it(
      "refuses before sending: no file named, a missing file, two downloads at once; 404 for another user's",
      SLOW,
      async () => {
        const { transaction, allot } = await setUp();
        const { id } = transaction;
        const usage = async (args: string[], code: string, message: RegExp) => {
          const run = await allot(...args, "--json");
          expect(run.code, run.stderr).toBe(2);
          expect(run.errorJson()).toMatchObject({ code, detail: expect.stringMatching(message) });
        };
        await usage(["attach", id], "usage_error", /--image, --document or both/);
        await usage(
          ["attach", id, "--image", file("nope.png")],
          "invalid_file",
          /--image .*nope\.png: no such file/,
        );
        await usage(["attach", id, "--document", folder], "invalid_file", /not a file/);
        await usage(["detach", id], "usage_error", /--image, --document or both/);
        await usage(
          ["download", id, "--image", "--document", "-o", file("x")],
          "usage_error",
          /one file at a time/,
        );
        await usage(["download", id, "--image"], "usage_error", /give --output FILE/);

        const other = await server.apiKeyUser();
        const theirs = await other.allot([
          "transactions",
          "attach",
          id,
          "--image",
          file("receipt.png"),
          "--json",
        ]);
        expect(theirs.code).toBe(1);
        expect(theirs.errorJson()).toMatchObject({ code: "not_found" });
      },
    );
    it(
      "receipt: saves the file under its uploaded name, cleaned, where it runs; --document, --output, -, --force; none is exit 1",
      SLOW,
      async () => {
        const { client, transaction, allot, allotIn } = await setUp();
        const { id } = transaction;
        const here = await mkdtemp(join(folder, "cwd-"));

        const none = await allotIn(here, "receipt", id);
        expect(none.code).toBe(1);
        expect(none.stderr).toBe(
          `error: Transaction ${id} has no image: attach one with \`allot transactions attach ${id} --image FILE\`.\n`,
        );
        expect(await readdir(here)).toEqual([]);

        // The name as uploaded: leading dots, a right-to-left override, a colon. Saved cleaned.
        await client.transactions.attach(id, {
          image: { bytes: png, filename: "..\u202ereceipt:1.png" },
          document: { bytes: pdf, filename: "invoice.pdf" },
        });
        const saved = await allotIn(here, "receipt", id);
        expect(saved.stderr).toBe("");
        expect(saved.code).toBe(0);
        expect(saved.stdout).toBe(
          `Saved the image of ${id} to receipt_1.png (${png.length} bytes, image/png).\n`,
        );
        expect(await readdir(here)).toEqual(["receipt_1.png"]);
        expect(sha256(await readFile(join(here, "receipt_1.png")))).toBe(sha256(png));

        // An existing file is kept unless --force.
        await writeFile(join(here, "invoice.pdf"), "mine");
        const kept = await allotIn(here, "receipt", id, "--document", "--json");
        expect(kept.code).toBe(2);
        expect(kept.errorJson()).toMatchObject({
          code: "file_exists",
          detail: expect.stringContaining("--force"),
        });
        expect(await readFile(join(here, "invoice.pdf"), "utf8")).toBe("mine");
        const forced = await allotIn(here, "receipt", id, "--document", "--force", "--json");
        expect(forced.code, forced.stderr).toBe(0);
        expect(forced.json()).toEqual({
          id,
          field: "document",
          path: join(here, "invoice.pdf"),
          filename: "invoice.pdf",
          content_type: "application/pdf",
          size: pdf.length,
        });
        expect(sha256(await readFile(join(here, "invoice.pdf")))).toBe(sha256(pdf));

        const chosen = await allot("receipt", id, "--output", file("chosen.png"));
        expect(chosen.code, chosen.stderr).toBe(0);
        expect(sha256(await readFile(file("chosen.png")))).toBe(sha256(png));
        const piped = await allot("receipt", id, "--document", "--output", "-");
        expect(piped.stderr).toBe("");
        expect(piped.code).toBe(0);
        expect(sha256(piped.stdoutBytes)).toBe(sha256(pdf));

        // Without its image, the error points at the document it still has.
        await client.transactions.detach(id, "image");
        const gone = await allotIn(here, "receipt", id, "--json");
        expect(gone.code).toBe(1);
        expect(gone.errorJson()).toEqual({
          code: "not_found",
          detail: `Transaction ${id} has no image: attach one with \`allot transactions attach ${id} --image FILE\`, or download its document with --document.`,
        });
        // Another user's transaction is the API's 404, as for every other command.
        const other = await server.apiKeyUser();
        const theirs = await other.allot(["transactions", "receipt", id, "--document", "--json"], {
          cwd: here,
        });
        expect(theirs.code).toBe(1);
        expect(theirs.errorJson()).toMatchObject({ code: "not_found" });
        expect((await readdir(here)).sort()).toEqual(["invoice.pdf", "receipt_1.png"]);
      },
    );
  },
);
