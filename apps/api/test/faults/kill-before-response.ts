import type { ApiProcess } from "./api-process";
import { pendingAnswer } from "./pending-answer";

/** The answer a SIGKILL kept from leaving (see freeze-before-response.mjs), and what the client got. */
export interface UnsentAnswer {
  /** Its status line, e.g. `HTTP/1.1 201 Created`. */
  statusLine: string;
  /** Its body as the process was about to write it. */
  body: string;
  /** What the client got: an error (the connection died), never a status. */
  response: string;
  /** ms from sending the request to the freeze. */
  afterMs: number;
}

const FREEZE_TIMEOUT_MS = 120_000;

/**
 * Sends `request` to a process started with `freezeResponse` and SIGKILLs it once it froze before
 * writing that answer: whatever the request did has run (a write's transaction committed), and not
 * one byte of the answer left. `whileFrozen` runs before the kill (on PostgreSQL another session can
 * look at what committed); the frozen process cannot change anything meanwhile.
 */
export async function killBeforeResponse(
  api: ApiProcess,
  request: () => Promise<Response>,
  whileFrozen: () => Promise<void> = async () => {},
): Promise<UnsentAnswer> {
  const started = performance.now();
  const { answer, settled } = pendingAnswer(request);
  const deadline = Date.now() + FREEZE_TIMEOUT_MS;
  let line: string | undefined;
  while (!line) {
    if (settled()) throw new Error(`the request finished before the process froze: ${settled()}`);
    if (Date.now() > deadline) throw new Error("the process never froze");
    await new Promise((r) => setTimeout(r, 5));
    line = api
      .output()
      .split("\n")
      .find((l) => l.startsWith("FAULT-FROZEN "));
  }
  const afterMs = performance.now() - started;
  const { response: written } = JSON.parse(line.slice("FAULT-FROZEN ".length)) as { response: string };
  await whileFrozen();
  await api.kill();
  const headEnd = written.indexOf("\r\n\r\n");
  return {
    statusLine: written.slice(0, written.indexOf("\r\n")),
    body: headEnd < 0 ? "" : written.slice(headEnd + 4),
    response: await answer,
    afterMs,
  };
}
