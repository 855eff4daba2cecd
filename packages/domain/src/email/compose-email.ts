/** The words of a message; compose-email renders them as plain text and as HTML. */
export interface EmailContent {
  subject: string;
  /** Paragraphs, in order. */
  paragraphs: string[];
  /** The one thing to do, as a button in HTML and a bare link in text. */
  action?: { label: string; url: string };
  /** A closing note under the action (why the user got this, what to do if it wasn't them). */
  footer?: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/**
 * Plain text and HTML of the same message. Every value is escaped in the HTML: names, addresses
 * and account names come from users.
 */
export function composeEmail(content: EmailContent): { subject: string; text: string; html: string } {
  const text = [
    ...content.paragraphs,
    ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []),
    ...(content.footer ? [content.footer] : []),
  ].join("\n\n");
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    ...content.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(content.action
      ? [
          `<p><a href="${escapeHtml(content.action.url)}" style="display: inline-block; padding: 8px 16px; ` +
            `background: #1f6feb; color: #fff; text-decoration: none; border-radius: 4px">` +
            `${escapeHtml(content.action.label)}</a></p>`,
          `<p style="font-size: small">Or open this link: ${escapeHtml(content.action.url)}</p>`,
        ]
      : []),
    ...(content.footer ? [`<p style="font-size: small; color: #666">${escapeHtml(content.footer)}</p>`] : []),
    "</body></html>",
  ].join("\n");
  return { subject: content.subject, text: `${text}\n`, html };
}
