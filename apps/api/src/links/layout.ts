import { createHash } from "node:crypto";
import type { FastifyReply } from "fastify";
import { html, SafeHtml } from "./html";

const CSS = `
body { margin: 0; background: #f5f6f8; color: #1d2330; font: 16px/1.5 system-ui, sans-serif; }
main { max-width: 32rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 8px;
  box-shadow: 0 1px 3px rgba(0, 0, 0, 0.12); }
h1 { font-size: 1.4rem; margin-top: 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dt { color: #5b6475; }
dd { margin: 0; }
form { display: inline-block; margin: 0.5rem 0.5rem 0 0; }
form.stacked { display: block; }
label { display: block; margin-top: 1rem; font-weight: 600; }
input { width: 100%; box-sizing: border-box; padding: 0.5rem; font: inherit; }
fieldset { margin: 1.5rem 0 0; padding: 0 1rem 1rem; border: 1px solid #e4e7ec; border-radius: 4px; }
legend { font-weight: 600; padding: 0 0.25rem; }
.hint { margin: 0.25rem 0 0; font-size: 0.85rem; color: #5b6475; }
pre { padding: 0.75rem; background: #f5f6f8; border-radius: 4px; font-size: 0.85rem; white-space: pre-wrap;
  overflow-wrap: anywhere; }
button { padding: 0.5rem 1.25rem; font: inherit; border: 0; border-radius: 4px; cursor: pointer;
  background: #1f6feb; color: #fff; margin-top: 1rem; }
button.secondary { background: #e4e7ec; color: #1d2330; }
.error { color: #b42318; }
.notice { padding: 0.75rem 1rem; border-radius: 4px; background: #fef3f2; color: #b42318; }
.success { padding: 0.75rem 1rem; border-radius: 4px; background: #ecfdf3; color: #067647; }
footer { margin-top: 2rem; font-size: 0.85rem; color: #5b6475; }
`;

// The stylesheet is allowed by its hash: no inline style attributes, no scripts, nothing external.
const STYLE_HASH = createHash("sha256").update(CSS).digest("base64");

/**
 * Headers of every `/links/…` response. The token in the path is the credential, so it must not
 * leak through a Referer or a cache; the pages are never framed (no clickjacking of the buttons)
 * and forms may only post back here.
 */
export const LINK_PAGE_HEADERS = {
  "content-security-policy": [
    "default-src 'none'",
    `style-src 'sha256-${STYLE_HASH}'`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; "),
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
} as const;

/** One page in the shared shell: a title and a body, nothing else. */
function renderPage(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Allot</title>
<style>${new SafeHtml(CSS)}</style>
</head>
<body>
<main>
<h1>${title}</h1>
${body}
<footer>Allot</footer>
</main>
</body>
</html>
`.markup;
}

/** Sends a rendered page with the given status (the security headers come from the /links hook). */
export function sendPage(reply: FastifyReply, status: number, title: string, body: SafeHtml) {
  return reply.code(status).type("text/html; charset=utf-8").send(renderPage(title, body));
}

/** The page for an unknown `/links/…` path, or a token no endpoint knows. */
export function sendNotFound(reply: FastifyReply) {
  return sendPage(
    reply,
    404,
    "Link not found",
    html`<p>This link is not valid. It may have been cut short or changed on the way: open it again from
the email, or copy the whole address into the browser.</p>`,
  );
}
