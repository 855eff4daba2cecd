import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/** How long a refused request's connection stays half-open for the client to read the answer. */
export const LINGER_MS = 2_000;
/**
 * The most of a refused body read (and thrown away) after the answer; past it, reading stops. A
 * client that writes a whole body before reading its answer gets it for bodies up to about the
 * body limit plus this (and the kernels' buffers).
 */
export const LINGER_MAX_BYTES = 8 * 1024 * 1024;
// How often the bytes read while lingering are checked (the HTTP parser reads the socket itself).
const LINGER_CHECK_MS = 5;

type LingeringSocket = Socket & {
  destroySoon?: () => void;
  _handle?: { readStop?: () => number } | null;
};

/**
 * An answer given before the request's body was read — a 401 to an anonymous caller, a 413, the
 * 400/415 of a content type we do not parse, a 404 — closes the connection (`Connection: close`), so
 * the rest of the body is never read, on every route. Closing at once would reset a client still
 * writing, whose kernel may then drop the answer unread (EPIPE/ECONNRESET instead of the 413), so
 * the close lingers (decision 0050): the answer is sent, the connection half-closed, at most
 * LINGER_MAX_BYTES more of the body read and thrown away, then reading stops, and the socket is
 * destroyed after LINGER_MS unless the client has closed its side first.
 */
export function closeAfterEarlyRefusals(app: FastifyInstance) {
  // Synchronous, as answerAuthenticateChallenge's hook.
  app.addHook("onSend", (request, reply, payload, done) => {
    if (bodyUnread(request.raw)) {
      reply.header("connection", "close");
      lingerOnClose(request.raw);
    }
    done(null, payload);
  });
}

/**
 * A body was announced and not all of it has arrived (a request with none is complete at once).
 * Only a socket's request says so: `app.inject`'s has no `complete` and no connection to close.
 */
const bodyUnread = (request: IncomingMessage) => request.complete === false;

function lingerOnClose(request: IncomingMessage) {
  const socket = request.socket as LingeringSocket;
  if (!socket || socket.destroyed) return;
  // Node calls destroySoon once the answer of a `Connection: close` request is written.
  socket.destroySoon = () => {
    const start = socket.bytesRead;
    const check = setInterval(() => {
      if (socket.bytesRead - start > LINGER_MAX_BYTES) socket._handle?.readStop?.();
    }, LINGER_CHECK_MS);
    const deadline = setTimeout(() => socket.destroy(), LINGER_MS);
    check.unref();
    deadline.unref();
    socket.once("close", () => {
      clearInterval(check);
      clearTimeout(deadline);
    });
    // Half-closed: the answer, then our end; the socket closes once the client ends too.
    socket.end();
  };
}
