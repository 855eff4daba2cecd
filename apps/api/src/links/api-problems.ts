import { NON_FIELD_ERRORS } from "@allot/domain/shared/validation";
import type { FastifyReply } from "fastify";
import type { ApiAnswer } from "./call-api";
import { html, type SafeHtml } from "./html";
import { sendNotFound, sendPage } from "./layout";

/** An error answer, as a page shows it: messages beside named fields, and the rest on top. */
export interface Problems {
  fields: Record<string, string[]>;
  general: string[];
}

const isMessages = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

/**
 * Reads the API's error bodies (docs/spec/operations.md): `{detail, code}` or a ValidationError
 * (`{field: [messages]}`, cross-field ones under `non_field_errors`). A throttle or a server error
 * gets a plain sentence instead of whatever the body held.
 */
export function problemsOf(answer: ApiAnswer): Problems {
  if (answer.status === 429) {
    const wait = answer.retryAfter ? ` Try again in ${answer.retryAfter} seconds.` : " Try again later.";
    return { fields: {}, general: [`Too many requests from this address.${wait}`] };
  }
  const body = answer.body;
  if (answer.status >= 500 || !body || typeof body !== "object") {
    return { fields: {}, general: ["Something went wrong on our side. Try again later."] };
  }
  const { detail } = body as { detail?: unknown };
  if (typeof detail === "string") return { fields: {}, general: [detail] };
  const problems: Problems = { fields: {}, general: [] };
  for (const [key, value] of Object.entries(body)) {
    if (!isMessages(value)) continue;
    if (key === NON_FIELD_ERRORS) problems.general.push(...value);
    else problems.fields[key] = value;
  }
  return problems;
}

/** Every message of the answer, for pages that have no fields to put them beside. */
function messagesOf(answer: ApiAnswer): string[] {
  const { fields, general } = problemsOf(answer);
  return [...general, ...Object.values(fields).flat()];
}

/**
 * A page reporting a refused request: the API's status (and Retry-After), its messages, a hint.
 * A 404 (no such token) gets the not-found page every family shares.
 */
export function sendProblem(reply: FastifyReply, answer: ApiAnswer, title: string, hint?: SafeHtml) {
  if (answer.status === 404) return sendNotFound(reply);
  if (answer.retryAfter) reply.header("retry-after", answer.retryAfter);
  const status = answer.status >= 400 ? answer.status : 502;
  return sendPage(
    reply,
    status,
    title,
    html`<div class="notice" role="alert">${messagesOf(answer).map((m) => html`<p>${m}</p>`)}</div>
${hint ?? ""}`,
  );
}
