import type { MailTransport } from "@allot/domain/email/outgoing-email";
import { fileTransport } from "./file-transport";
import { logTransport } from "./log-transport";
import { resendTransport } from "./resend-transport";

/** Where emails go (docs/spec/operations.md, MAIL_TRANSPORT): printed, written one file each, or sent by Resend. */
export type MailSettings =
  | { transport: "log"; from: string; logBodies: boolean }
  | { transport: "file"; from: string; directory: string }
  | { transport: "resend"; from: string; apiKey: string };

export function mailTransportFor(settings: MailSettings): MailTransport {
  switch (settings.transport) {
    case "log":
      return logTransport(settings.from, { bodies: settings.logBodies });
    case "file":
      return fileTransport(settings.directory, settings.from);
    case "resend":
      return resendTransport(settings.apiKey, settings.from);
  }
}
