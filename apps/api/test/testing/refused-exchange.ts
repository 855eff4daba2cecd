import { once } from "node:events";
import { connect } from "node:net";

export interface RefusedExchange {
  /** The answer as read (status line, headers, body); empty if none came. */
  answer: string;
  status: number;
  /** Body bytes the client got written before the connection closed (or it gave up). */
  sent: number;
  /** The connection was closed by the server (end or reset) within the wait. */
  closed: boolean;
  /** A socket error seen before the answer was read whole (a reset that ate the answer). */
  errorBeforeAnswer: string | null;
}

/**
 * One request on a kept-alive connection (no `Connection` header: HTTP/1.1's default), its head
 * then `declared` bytes of body written as fast as the server takes them — and after any answer
 * too, as a hostile client would — until the server closes, `maxSend` is reached, or `waitMs`
 * passes. Real sockets: `app.inject` hands the server the whole body at once and has no connection.
 */
export async function sendWhileRefused(
  port: number,
  head: string,
  options: { declared: number | "chunked"; maxSend: number; waitMs?: number },
): Promise<RefusedExchange> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  let answer = "";
  let answeredWhole = false;
  let errorBeforeAnswer: string | null = null;
  let closed = false;
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    answer += chunk;
    const end = answer.indexOf("\r\n\r\n");
    const length = /\r\ncontent-length: (\d+)/i.exec(answer.slice(0, end));
    if (end >= 0 && length && answer.length >= end + 4 + Number(length[1])) answeredWhole = true;
  });
  socket.on("error", (error: NodeJS.ErrnoException) => {
    if (!answeredWhole) errorBeforeAnswer = error.code ?? error.message;
  });
  const gone = new Promise<void>((resolve) => {
    socket.on("close", () => {
      closed = true;
      resolve();
    });
  });
  const chunked = options.declared === "chunked";
  socket.write(
    `${head}\r\n${chunked ? "transfer-encoding: chunked" : `content-length: ${options.declared}`}\r\n\r\n`,
  );
  const chunk = chunked ? Buffer.from(`10000\r\n${"x".repeat(64 * 1024)}\r\n`) : Buffer.alloc(64 * 1024, "x");
  // Chunked: one multipart field (boundary "b") that grows past every bound.
  const preamble = '--b\r\ncontent-disposition: form-data; name="f"\r\n\r\n';
  if (chunked) socket.write(`${preamble.length.toString(16)}\r\n${preamble}\r\n`);
  const giveUp = Date.now() + (options.waitMs ?? 10_000);
  let sent = 0;
  const limit = chunked ? options.maxSend : Math.min(options.maxSend, options.declared as number);
  while (!closed && sent < limit && Date.now() < giveUp) {
    sent += chunk.length;
    if (!socket.write(chunk)) {
      const drained = once(socket, "drain").catch(() => undefined);
      await Promise.race([drained, gone, new Promise((resolve) => setTimeout(resolve, giveUp - Date.now()))]);
    }
  }
  await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, Math.max(0, giveUp - Date.now())))]);
  socket.destroy();
  return {
    answer,
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0),
    sent,
    closed,
    errorBeforeAnswer,
  };
}
