/** A file part of a test's form: its bytes, the name and type the client declares. */
export interface FormFile {
  filename: string;
  bytes: Buffer;
  type?: string;
}

const BOUNDARY = "----allot-test-form-boundary-7MA4YWxkTrZu0gW";

/**
 * A multipart/form-data body as a browser sends it: text fields, and file parts with their
 * declared name and type. Returns what `t.inject` takes.
 */
export function multipartForm(fields: Record<string, string | FormFile>) {
  const parts = Object.entries(fields).map(([name, value]) => {
    if (typeof value === "string")
      return Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
    const head =
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\n` +
      `Content-Type: ${value.type ?? "application/octet-stream"}\r\n\r\n`;
    return Buffer.concat([Buffer.from(head), value.bytes, Buffer.from("\r\n")]);
  });
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
  };
}
