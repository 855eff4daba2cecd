import { FormData } from "undici";
import { isFileUpload, openUpload } from "./file-upload";

/**
 * A write body holding files as multipart/form-data, the way the API reads a form: each file a file
 * part; every other field one text part — null as an empty value (which the contract reads as
 * null: a file removed, a memo cleared), a date as ISO, numbers and booleans as their text. A list
 * or an object has no form text the contract reads on these routes (a transaction's fields are all
 * flat; its allocations change through `splits`), so it is a TypeError here, before anything is
 * sent. undici serialises the form anew for each attempt, reading the files again: a resend sends
 * the same bytes.
 */
export async function multipartForm(body: Record<string, unknown>): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (isFileUpload(value)) {
      const { blob, filename } = await openUpload(value);
      form.append(name, blob, filename);
    } else form.append(name, formText(name, value));
  }
  return form;
}

function formText(name: string, value: unknown): string {
  if (value === null) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object")
    throw new TypeError(
      `SDK: '${name}' (a list or an object) cannot be sent beside a file: send the file in a call of its own`,
    );
  return String(value);
}
