import { controlCharacters } from "@allot/contract/http/control-characters";

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
 * A piece of a message without control characters, each made a space: names interpolated into it
 * come from users (and rows stored before names refused them may hold some). In the subject a CR
 * or LF would end the header and start another (`Bcc:`); in the body an ESC would reach a
 * terminal mail reader. The message's own line breaks are added after, between pieces.
 */
const plain = (text: string) => text.replace(controlCharacters(), " ");

/**
 * Plain text and HTML of the same message. Every piece is cleaned of control characters, the
 * subject first (every email Allot sends is composed here), and every value is escaped in the
 * HTML: names, addresses and account names come from users.
 */
export function composeEmail(written: EmailContent): { subject: string; text: string; html: string } {
  const content: EmailContent = {
    subject: plain(written.subject).trim(),
    paragraphs: written.paragraphs.map(plain),
    ...(written.action && { action: { label: plain(written.action.label), url: plain(written.action.url) } }),
    ...(written.footer !== undefined && { footer: plain(written.footer) }),
  };
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
