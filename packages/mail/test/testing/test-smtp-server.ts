import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

/** One message as the server took it: parsed, with what the session knew when it arrived. */
export interface ReceivedMail {
  mail: ParsedMail;
  secure: boolean;
  /** The authenticated user (what onAuth answered), if any. */
  user: string | undefined;
  envelope: { from: string | false; to: string[] };
}

export interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 at a port the OS picks, recording each message it accepts. */
export async function startTestSmtpServer(options: SMTPServerOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 1_000,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const from = session.envelope.mailFrom;
          received.push({
            mail,
            secure: session.secure,
            user: session.user as string | undefined,
            envelope: {
              from: from ? from.address : false,
              to: session.envelope.rcptTo.map((r) => r.address),
            },
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
    ...options,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An error an SMTP server callback answers with: `code` becomes the reply's status. */
export function smtpRefusal(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}
