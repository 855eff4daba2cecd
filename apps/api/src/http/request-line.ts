import { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { maskTokenPaths } from "./request-log";

const LEVELS_ABOVE_INFO = new Set(["warn", "error", "fatal", "silent"]);

/**
 * One log line a request, written when it is answered (fastify writes two: "incoming request",
 * then "request completed"): method, URL as the client sent it with its tokens masked, status,
 * response time in ms and the client's address; the request id is the line's `reqId`. A response
 * that failed to go out is the same line at `error`, with the error.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // Above LOG_LEVEL=info (the bench's warn, a quiet production) a request writes nothing: the
    // line is not even built.
    if (!error && LEVELS_ABOVE_INFO.has(reply.log.level)) return;
    const line = {
      method: request.method,
      // As received: the route hook rewrites request.url to its decoded form.
      url: maskTokenPaths(request.allot?.url ?? request.url),
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      remoteAddress: request.ip,
    };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}
