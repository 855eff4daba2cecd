import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestApp } from "@allot/api/test/testing/test-app";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { sampleJpeg, samplePdf, samplePng } from "@allot/domain/testing/sample-files";
import { isApiError, isValidationError } from "@allot/sdk/api-error";
import { type Client, createClient } from "@allot/sdk/client";
import type { FileDownload } from "@allot/sdk/file-download";
import { fileWriteJournal } from "@allot/sdk/file-write-journal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useScriptedProxy } from "../test/testing/scripted-proxy";

/*
 * Receipts through the SDK against the real API over HTTP (docs/spec/extensions.md §5): uploads
 * from a Blob, bytes and a path as multipart on create, PUT and PATCH, removal, downloads streamed,
 * 404s, and an upload whose answer was lost resent under its key and replayed.
 */

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const png = samplePng(3, 2);
const jpeg = sampleJpeg();
const pdf = samplePdf();
const URL_OF = (id: string, field: string) => `http://allot.test/api/v1/transactions/${id}/${field}/`;

/** Every byte of a download's stream. */
async function bytesOf(download: FileDownload): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of download.stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe.each(testEngines())("the SDK's receipts against the API (%s)", (engine) => {
  const t = useTestApp(engine);
  const proxy = useScriptedProxy(() => baseUrl);
  let baseUrl: string;
  let folder: string;

  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    folder = await mkdtemp(join(tmpdir(), "allot-sdk-receipts-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /** A user's client (`url`: another way in, e.g. the proxy) and an account of theirs. */
  async function anAccount(url = baseUrl) {
    const user = await t.user();
    const client = createClient({ baseUrl: url, auth: { bearer: user.bearer.replace(/^Bearer /, "") } });
    const bank = await createBank(internalContext(t.db, "cli"), {
      name: `Receipts ${user.id}`,
      currency: "USD",
    });
    const account = await client.bankAccounts.create({
      name: "Checking",
      bank: bank.id,
      posted_balance: "100.00",
    });
    return { user, client, account };
  }

  const fields = (accountId: string) => ({
    bank_account: accountId,
    amount: "-12.50",
    transaction_date: "2026-03-10T12:00:00Z",
    transaction_type: "signature_purchase" as const,
    raw_description: "GROCER 123",
    pending: false,
  });

  const CREATE = "/api/v1/transactions/";
  /** The proxy passes the next transaction create to the server, and loses its answer. */
  function loseNextCreate() {
    let cut = false;
    proxy.script = ({ method, path }) => {
      if (method !== "POST" || path !== CREATE || cut) return "pass";
      cut = true;
      return "cut";
    };
  }
  const creates = () => proxy.seen.filter((request) => request.method === "POST" && request.path === CREATE);

  const download = (client: Client, id: string, field: "image" | "document") =>
    client.transactions.download(id, field).then(async (file) => ({ ...file, bytes: await bytesOf(file) }));

  it("uploads a File on create beside the other fields, answers its URL and size, and streams it back", async () => {
    const { client, account } = await anAccount();
    const created = await client.transactions.create({
      ...fields(account.id),
      memo: "lunch",
      image: new File([png], "receipt.png", { type: "image/png" }),
    });
    expect(created).toMatchObject({
      amount: "-12.50",
      pending: false,
      memo: "lunch",
      image: URL_OF(created.id, "image"),
      image_width: 3,
      image_height: 2,
      document: null,
    });
    const file = await download(client, created.id, "image");
    expect(file).toMatchObject({ contentType: "image/png", filename: "receipt.png", size: png.length });
    expect(sha256(file.bytes)).toBe(sha256(png));
    // The generated method streams too: it no longer reads the bytes as JSON.
    const generated = await client.transactions.getTransactionImage({ id: created.id });
    expect(sha256(await bytesOf(generated))).toBe(sha256(png));
  });

  it("attaches bytes with a name and a file by path (PATCH), replaces one (PUT), and detaches", async () => {
    const { client, account } = await anAccount();
    const { id } = await client.transactions.create(fields(account.id));
    const path = join(folder, "facture été.pdf");
    await writeFile(path, pdf);

    const attached = await client.transactions.attach(id, {
      image: { bytes: jpeg, filename: "till.jpg" },
      document: { path },
    });
    expect(attached).toMatchObject({
      image: URL_OF(id, "image"),
      image_width: 1,
      image_height: 1,
      document: URL_OF(id, "document"),
    });
    const document = await download(client, id, "document");
    // A name beyond ASCII comes back whole, from Content-Disposition's filename*.
    expect(document).toMatchObject({
      contentType: "application/pdf",
      filename: "facture été.pdf",
      size: pdf.length,
    });
    expect(sha256(document.bytes)).toBe(sha256(pdf));
    expect(sha256((await download(client, id, "image")).bytes)).toBe(sha256(jpeg));

    // PUT with a new image, from a path under a name of our choosing: the old one is gone.
    const bigger = samplePng(7, 5);
    await writeFile(join(folder, "scan.bin"), bigger);
    const replaced = await client.transactions.replace({
      id,
      transaction_type: "signature_purchase",
      description: "Grocer",
      image: { path: join(folder, "scan.bin"), filename: "scan.png" },
    });
    expect(replaced).toMatchObject({ description: "Grocer", image_width: 7, image_height: 5 });
    const image = await download(client, id, "image");
    expect(image).toMatchObject({ contentType: "image/png", filename: "scan.png" });
    expect(sha256(image.bytes)).toBe(sha256(bigger));

    // JSON null removes: one field, then the other through update.
    expect(await client.transactions.detach(id, "image")).toMatchObject({
      image: null,
      image_width: null,
      image_height: null,
      document: URL_OF(id, "document"),
    });
    expect(await client.transactions.update({ id, document: null })).toMatchObject({
      image: null,
      document: null,
    });
    const gone = await client.transactions.download(id, "document").catch((e: unknown) => e);
    expect(isApiError(gone, 404)).toBe(true);
  });

  it("removes one file and uploads another in one multipart write", async () => {
    const { client, account } = await anAccount();
    const { id } = await client.transactions.create({ ...fields(account.id), image: new Blob([png]) });
    const changed = await client.transactions.update({
      id,
      image: null,
      document: { bytes: pdf, filename: "bill.pdf" },
    });
    expect(changed).toMatchObject({ image: null, document: URL_OF(id, "document") });
    // A bare Blob has no name of its own: it goes as the form's default one.
    expect(await download(client, id, "document")).toMatchObject({ filename: "bill.pdf" });
    const unnamed = await client.transactions.create({ ...fields(account.id), image: new Blob([png]) });
    expect(await download(client, unnamed.id, "image")).toMatchObject({ filename: "blob", size: png.length });
  });

  it("answers 404 without a file and for another user's transaction, 400 on a file that is no image", async () => {
    const { client, account } = await anAccount();
    const { id } = await client.transactions.create({
      ...fields(account.id),
      document: { bytes: pdf, filename: "a.pdf" },
    });
    const noImage = await client.transactions.download(id, "image").catch((e: unknown) => e);
    expect(noImage).toMatchObject({ status: 404, code: "not_found" });

    const other = await anAccount();
    const theirs = await other.client.transactions.download(id, "document").catch((e: unknown) => e);
    expect(isApiError(theirs, 404)).toBe(true);
    const attach = await other.client.transactions
      .attach(id, { image: { bytes: png, filename: "x.png" } })
      .catch((e: unknown) => e);
    expect(isApiError(attach, 404)).toBe(true);

    const refused = await client.transactions
      .attach(id, { image: { bytes: pdf, filename: "not-an-image.png" } })
      .catch((e: unknown) => e);
    expect(isValidationError(refused) && refused.fields.image).toEqual([expect.any(String)]);
  });

  it("resends an upload whose answer was lost with the same key and body: replayed, made once", async () => {
    const { client, account } = await anAccount(proxy.url);
    loseNextCreate();
    const created = await client.transactions.create({
      ...fields(account.id),
      image: { bytes: png, filename: "r.png" },
    });
    const posts = creates();
    expect(posts.map((p) => [p.action, p.status, p.replayed])).toEqual([
      ["cut", 201, false],
      ["pass", 201, true],
    ]);
    expect(posts[1]?.key).toBe(posts[0]?.key);
    expect(posts[1]?.body).toContain('filename="r.png"');
    const listed = await client.transactions.list({ bank_account: account.id });
    expect(listed.results.map((row) => row.id)).toEqual([created.id]);
    expect(sha256((await download(client, created.id, "image")).bytes)).toBe(sha256(png));
  });
  it("keeps a lost upload's key in a write journal: the same file again is replayed, another is a new write", async () => {
    const { user, account } = await anAccount(proxy.url);
    const client = createClient({
      baseUrl: proxy.url,
      auth: { bearer: user.bearer.replace(/^Bearer /, "") },
      writeJournal: fileWriteJournal(join(folder, `journal-${user.id}.json`)),
      retries: 0,
    });
    const path = join(folder, `r-${user.id}.png`);
    await writeFile(path, png);
    loseNextCreate();
    const lost = await client.transactions
      .create({ ...fields(account.id), image: { path } })
      .catch((e: unknown) => e);
    expect(lost).toMatchObject({ code: "UND_ERR_SOCKET" });

    // A later run gives the same file as bytes under the same name: the same write, answered once.
    const name = `r-${user.id}.png`;
    const again = await client.transactions.create({
      ...fields(account.id),
      image: { bytes: png, filename: name },
    });
    // Other bytes under that name are another write.
    const other = await client.transactions.create({
      ...fields(account.id),
      image: { bytes: samplePng(4, 4), filename: name },
    });
    const [first, second, third] = creates();
    expect([first?.action, second?.replayed, third?.replayed]).toEqual(["cut", true, false]);
    expect(second?.key).toBe(first?.key);
    expect(third?.key).not.toBe(first?.key);
    const listed = await client.transactions.list({ bank_account: account.id, ordering: "created_at" });
    expect(listed.results.map((row) => row.id)).toEqual([again.id, other.id]);
    expect(other.image_width).toBe(4);
  });
});
