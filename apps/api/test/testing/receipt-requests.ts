import { createHash } from "node:crypto";
import { type FormFile, multipartForm } from "./multipart-form";

/* Receipts over real HTTP, for the tests that start API processes (faults, scale-out). */

export const sha256 = (bytes: Buffer | Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A multipart write of transaction fields and files: POST to create, PUT or PATCH a transaction. */
export function sendTransactionForm(
  base: string,
  bearer: string,
  method: "POST" | "PUT" | "PATCH",
  id: string | null,
  fields: Record<string, string | FormFile>,
) {
  const form = multipartForm(fields);
  return fetch(`${base}/api/v1/transactions/${id === null ? "" : `${id}/`}`, {
    method,
    headers: { ...form.headers, authorization: bearer },
    body: form.payload,
  });
}

/** A transaction's file as downloaded: the status, and the SHA-256 of the body on a 200. */
export async function downloadDigest(base: string, bearer: string, id: string, field: "image" | "document") {
  const response = await fetch(`${base}/api/v1/transactions/${id}/${field}/`, {
    headers: { authorization: bearer },
  });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, sha256: response.status === 200 ? sha256(body) : null };
}
