import type { FastifyInstance, FastifyRequest } from "fastify";
import { sendProblem } from "./api-problems";
import { callApi, segment } from "./call-api";
import { html, type SafeHtml } from "./html";
import { sendPage } from "./layout";

type TokenRequest = FastifyRequest<{ Params: { token: string } }>;

interface EmailChangeAction {
  /** `confirm` or `revoke`: the last segment of both the page and the endpoint. */
  action: "confirm" | "revoke";
  title: string;
  explanation: SafeHtml;
  button: string;
  done: { title: string; body: SafeHtml };
  failed: string;
}

const ACTIONS: EmailChangeAction[] = [
  {
    action: "confirm",
    title: "Confirm your new email address",
    explanation: html`<p>Someone asked to move an Allot account to this email address. If it was you,
confirm it: sign-ins and notices will use this address from then on.</p>`,
    button: "Confirm the new address",
    done: {
      title: "Email address changed",
      body: html`<p class="success" role="status">Your new email address is confirmed. Sign in with it from
now on.</p>
<p>Your old address was sent a link to undo the change for the next 7 days.</p>`,
    },
    failed: "The email address could not be confirmed",
  },
  {
    action: "revoke",
    title: "Undo the email change",
    explanation: html`<p>If you did not ask to change the email address of your Allot account, undo the
change. Once it had been confirmed, undoing it restores this address, signs every session out and
makes the password unusable: a link to choose a new one comes to this address.</p>`,
    button: "Undo the change",
    done: {
      title: "Email change undone",
      body: html`<p class="success" role="status">The email change is undone: your account keeps this
address.</p>
<p>If the change had been confirmed, every session was signed out, API keys created since the change
was requested were revoked, and the password no longer works: use the link just sent to this address
to choose a new one.</p>`,
    },
    failed: "The email change could not be undone",
  },
];

/**
 * `/links/email-change/{token}/confirm` and `/revoke`: one button each, posting back to the same
 * path, which calls `POST /api/v1/users/me/change-email/{token}/{action}/` (public; the token is
 * the credential). Neither endpoint has a GET, so the page cannot tell a bad token before the press.
 */
export function registerEmailChangePages(links: FastifyInstance, app: FastifyInstance) {
  for (const page of ACTIONS) {
    const path = `/email-change/:token/${page.action}`;
    links.get(path, async (request: TokenRequest, reply) =>
      sendPage(
        reply,
        200,
        page.title,
        html`${page.explanation}
<form method="post" action="/links/email-change/${segment(request.params.token)}/${page.action}">
<button type="submit">${page.button}</button>
</form>`,
      ),
    );

    links.post(path, async (request: TokenRequest, reply) => {
      const answer = await callApi(
        app,
        request,
        "POST",
        `/v1/users/me/change-email/${segment(request.params.token)}/${page.action}/`,
      );
      if (answer.status >= 200 && answer.status < 300) {
        return sendPage(reply, 200, page.done.title, page.done.body);
      }
      return sendProblem(reply, answer, page.failed);
    });
  }
}
