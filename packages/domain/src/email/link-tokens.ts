/**
 * Every emailed link is `{PUBLIC_BASE_URL}/links/<page>/<token>[/…]` (password reset, email change,
 * invitations): the segment after the page's name is a credential. This masks it wherever such a
 * link or path appears in a text (a logged message, a request log line).
 */
export const maskLinkTokens = (text: string): string =>
  text.replace(/(\/links\/[^/\s?#"'<>]+\/)[^/\s?#"'<>]+/gi, "$1[masked]");
