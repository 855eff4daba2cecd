import type { MailTransport } from "@allot/domain/email/outgoing-email";
import { fileTransport } from "./file-transport";
import { logTransport } from "./log-transport";
import { resendTransport } from "./resend-transport";
import { smtpTransport } from "./smtp-transport";

/**
 * Where emails go (docs/spec/operations.md, MAIL_TRANSPORT): printed, written one file each, sent
 * by Resend, or handed to an SMTP server (`ca`: the PEM of SMTP_TLS_CA, trusted besides the public roots).
 */
export type MailSettings =
  | { transport: "log"; from: string; logBodies: boolean }
  | { transport: "file"; from: string; directory: string }
  | { transport: "resend"; from: string; apiKey: string }
  | { transport: "smtp"; from: string; url: string; ca?: string };

export function mailTransportFor(settings: MailSettings): MailTransport {
  switch (settings.transport) {
    case "log":
      return logTransport(settings.from, { bodies: settings.logBodies });
    case "file":
      return fileTransport(settings.directory, settings.from);
    case "resend":
      return resendTransport(settings.apiKey, settings.from);
    case "smtp":
      return smtpTransport({ url: settings.url, from: settings.from, ca: settings.ca });
  }
}
