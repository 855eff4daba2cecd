import { TEST_STORAGE_KINDS } from "@allot/attachments/testing/test-storage";
import { attachmentRemovals } from "@allot/db/schema/attachment-removals";
import { testEngines } from "@allot/db/testing/test-databases";
import { type FormFile, multipartForm } from "./multipart-form";
import type { TestUser, useTestApp } from "./test-app";

type Harness = ReturnType<typeof useTestApp>;

/** The fields every created transaction needs, as form text. */
export const transactionForm = (accountId: string) => ({
  bank_account: accountId,
  amount: "-12.50",
  transaction_date: "2026-03-10T12:00:00Z",
  transaction_type: "signature_purchase",
  raw_description: "GROCER 123",
});

/** Every engine with every store: the receipt tests run once for each pair. */
export const enginesAndStores = () =>
  testEngines().flatMap((engine) => TEST_STORAGE_KINDS.map((storage) => [engine, storage] as const));

/** Receipts through HTTP: multipart writes, downloads, and what the store and the queue hold. */
export function receiptKit(t: Harness) {
  const kit = {
    /** A multipart write of transaction fields and files, as `caller` (a user or an API key). */
    send(
      caller: TestUser | string,
      method: "POST" | "PUT" | "PATCH",
      id: string | null,
      fields: Record<string, string | FormFile>,
      headers: Record<string, string> = {},
    ) {
      const form = multipartForm(fields);
      return t.inject({
        method,
        url: id === null ? "/api/v1/transactions/" : `/api/v1/transactions/${id}/`,
        headers: {
          ...form.headers,
          ...headers,
          authorization: typeof caller === "string" ? caller : caller.bearer,
        },
        payload: form.payload,
      });
    },
    create(user: TestUser, accountId: string, files: Record<string, string | FormFile>) {
      return kit.send(user, "POST", null, { ...transactionForm(accountId), ...files });
    },
    download(caller: TestUser | string | null, id: string, field: "image" | "document", slash = "/") {
      const authorization = caller === null ? undefined : typeof caller === "string" ? caller : caller.bearer;
      return t.inject({
        method: "GET",
        url: `/api/v1/transactions/${id}/${field}${slash}`,
        headers: authorization ? { authorization } : {},
      });
    },
    /**
     * Every stored object's key, as the storage lists it (a local folder's temporary files too, to
     * see none; a bucket's keys).
     */
    storedKeys(): Promise<string[]> {
      return t.attachments.storage.contents();
    },
    /** The keys of this transaction's objects in the store. */
    async storedFor(id: string) {
      return (await kit.storedKeys()).filter((key) => key.startsWith(`transactions/${id}/`));
    },
    async queued() {
      return (await t.db.select().from(attachmentRemovals)).map((row) => row.key).sort();
    },
  };
  return kit;
}
