import type { FastifyError, FastifyInstance } from "fastify";
import { toErrorResponse } from "../http/error-response";
import type { AppServices } from "../trpc/context";
import { registerEmailChangePages } from "./email-change-pages";
import { html } from "./html";
import { registerInvitationPages } from "./invitation-pages";
import { LINK_PAGE_HEADERS, sendNotFound, sendPage } from "./layout";
import { registerPasswordResetPages } from "./password-reset-pages";
import { registerSetupPages } from "./setup-pages";

/**
 * The small server-rendered pages the emails link to (`/links/…`, docs/spec/operations.md), and the
 * first-run page the server prints. They sit beside the API, not in it: outside the contract's
 * route table and the OpenAPI document, with HTML errors and their own security headers. Each page
 * acts only on a POST: the emailed ones through the public JSON endpoint they stand for, the
 * first-run page through its use case.
 */
export async function registerLinkPages(app: FastifyInstance, services: AppServices) {
  await app.register(
    async (links) => {
      links.addHook("onRequest", async (_request, reply) => {
        reply.headers(LINK_PAGE_HEADERS);
      });
      links.setNotFoundHandler((_request, reply) => sendNotFound(reply));
      // Body errors (size, encoding, NUL characters) and failures as pages, never as JSON.
      links.setErrorHandler((error: FastifyError, request, reply) => {
        // One mapper for fastify's errors and the domain's (refused NUL characters).
        const given = toErrorResponse(error).status;
        const status = given >= 400 && given < 500 ? given : 500;
        if (status >= 500) request.log.error({ err: error }, "link page failed");
        return sendPage(
          reply,
          status,
          status >= 500 ? "Something went wrong" : "The request could not be read",
          status >= 500
            ? html`<p>Something went wrong on our side. Try the link again later.</p>`
            : html`<p>The form could not be read. Go back, reload the page and try again.</p>`,
        );
      });
      registerInvitationPages(links, app);
      registerPasswordResetPages(links, app);
      registerEmailChangePages(links, app);
      registerSetupPages(links, services);
    },
    { prefix: "/links" },
  );
}
