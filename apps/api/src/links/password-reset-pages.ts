import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type Problems, problemsOf, sendProblem } from "./api-problems";
import { callApi, segment } from "./call-api";
import { formField } from "./form-field";
import { html } from "./html";
import { sendPage } from "./layout";

type ResetRequest = FastifyRequest<{ Params: { token: string }; Body: unknown }>;

const FIELDS = [
  { name: "new_password", label: "New password" },
  { name: "confirm_password", label: "Confirm the new password" },
] as const;

const TITLE = "Choose a new password";

// The passwords typed are never echoed back into the page.
function sendForm(reply: FastifyReply, token: string, status: number, problems?: Problems) {
  const general = problems?.general ?? [];
  return sendPage(
    reply,
    status,
    TITLE,
    html`${general.length > 0 ? html`<div class="notice" role="alert">${general.map((m) => html`<p>${m}</p>`)}</div>` : ""}
<form class="stacked" method="post" action="/links/password-reset/${segment(token)}">
${FIELDS.map(({ name, label }) => {
  const errors = problems?.fields[name] ?? [];
  return html`<label for="${name}">${label}</label>
<input type="password" id="${name}" name="${name}" autocomplete="new-password" required${
    errors.length > 0 ? html` aria-invalid="true" aria-describedby="${name}-error"` : ""
  }>
${errors.length > 0 ? html`<p class="error" id="${name}-error">${errors.join(" ")}</p>` : ""}`;
})}
<button type="submit">Set the password</button>
</form>`,
  );
}

/**
 * `/links/password-reset/{token}`: the form, and its POST through
 * `POST /api/v1/password-reset/{token}/confirm/`. Weak or mismatched passwords come back beside
 * their fields; a refused token (expired, used, unknown) gets a page that says what to do next.
 */
export function registerPasswordResetPages(links: FastifyInstance, app: FastifyInstance) {
  links.get("/password-reset/:token", async (request: ResetRequest, reply) =>
    sendForm(reply, request.params.token, 200),
  );

  links.post("/password-reset/:token", async (request: ResetRequest, reply) => {
    const { token } = request.params;
    const answer = await callApi(app, request, "POST", `/v1/password-reset/${segment(token)}/confirm/`, {
      new_password: formField(request.body, "new_password"),
      confirm_password: formField(request.body, "confirm_password"),
    });
    if (answer.status >= 200 && answer.status < 300) {
      return sendPage(
        reply,
        200,
        "Password set",
        html`<p class="success" role="status">Your new password is
set. You can now sign in to Allot with it.</p>
<p>Every other signed-in session was signed out.</p>`,
      );
    }
    const problems = problemsOf(answer);
    if (answer.status === 400 && FIELDS.some(({ name }) => problems.fields[name])) {
      return sendForm(reply, token, 400, problems);
    }
    return sendProblem(
      reply,
      answer,
      "The password could not be set",
      html`<p>Reset links work once, for 24 hours. If this one has expired or was already used, ask for a
new one from the sign-in screen (&ldquo;Forgot your password?&rdquo;).</p>`,
    );
  });
}
