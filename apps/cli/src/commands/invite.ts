import type { BankAccountInvitationSchema } from "@allot/contract/invitations/invitation";
import { invitationRoutes } from "@allot/contract/invitations/routes";
import type { Command } from "commander";
import type { z } from "zod";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import type { CliEnv } from "../env";
import type { Column } from "../format/columns";
import { addOutputOptions, emitList, emitRecord, type OutputOptions } from "../format/emit";
import { shown } from "../format/terminal-text";
import { reportNeedingLogin } from "../login-hint";
import { printJson, UsageError } from "../output";
import { resolveAccountId } from "../resolve/account";

type Invitation = z.infer<typeof BankAccountInvitationSchema>;
type Options = ApiOptions & OutputOptions & { account?: string };

const COLUMNS: Column<Invitation>[] = [
  { header: "Invitee", value: (i) => i.invitee_email },
  { header: "Account", value: (i) => i.bank_account_name },
  { header: "Invited by", value: (i) => i.invited_by },
  { header: "Status", value: (i) => i.status },
  { header: "Expires", value: (i) => i.expires_at },
  { header: "Token", value: (i) => i.token },
];

const FIELDS: Column<Invitation>[] = [
  { header: "invitee", value: (i) => i.invitee_email },
  { header: "account", value: (i) => i.bank_account_name },
  { header: "account id", value: (i) => i.bank_account_id },
  { header: "invited by", value: (i) => i.invited_by },
  { header: "status", value: (i) => i.status },
  { header: "expires at", value: (i) => i.expires_at },
  { header: "token", value: (i) => i.token },
];

const ACCOUNT_HELP = "the account, by name or id (default: your default or only account)";

/**
 * `allot invite EMAIL` and `allot invitations`: share an account with someone by email. The API
 * takes invitations from interactive logins only, so these need `allot login`.
 */
export function registerInviteCommand(invite: Command, env: CliEnv): void {
  addApiOptions(addOutputOptions(invite))
    .argument("<email>", "the address to invite; they get an email with a link")
    .option("--account <name-or-id>", ACCOUNT_HELP)
    .addHelpText(
      "after",
      "\nExamples:\n  $ allot invite sam@example.com --account Household\n  $ allot invite sam@example.com --json\n",
    )
    .action((email: string, options: Options) =>
      run(options, async () => {
        const client = await openApiClient(env, options);
        const id = await resolveAccountId(client, options.account);
        await client.call(invitationRoutes.invite, { id, invitee_email: email });
        // The invite answers 201 without a body: the account's pending list has the new invitation.
        const pending = await client.call(invitationRoutes.listForAccount, { id });
        const invitation = pending.find((i) => i.invitee_email.toLowerCase() === email.trim().toLowerCase());
        if (invitation) emitRecord(invitation, FIELDS, options);
        if (!options.json && !options.csv)
          process.stderr.write(
            shown`Invited ${email.trim()}: they get an email with a link to accept. Cancel with \`allot invitations cancel ${email.trim()}\`.\n`,
          );
      }),
    );
}

/** `allot invitations [list] | sent | cancel`: the pending invitations of an account or of the caller. */
export function registerInvitationsCommands(invitations: Command, env: CliEnv): void {
  invitations.addHelpText(
    "after",
    "\nExamples:\n  $ allot invitations --account Household\n  $ allot invitations sent\n  $ allot invitations cancel sam@example.com\n",
  );

  addApiOptions(addOutputOptions(invitations.command("list", { isDefault: true })))
    .description("List an account's pending invitations (the default)")
    .option("--account <name-or-id>", ACCOUNT_HELP)
    .addHelpText(
      "after",
      "\nExamples:\n  $ allot invitations\n  $ allot invitations list --account Household --json\n",
    )
    .action((options: Options) =>
      run(options, async () => {
        const client = await openApiClient(env, options);
        const id = await resolveAccountId(client, options.account);
        emitList(
          await client.call(invitationRoutes.listForAccount, { id }),
          COLUMNS,
          options,
          "No pending invitations: invite someone with `allot invite EMAIL`.",
        );
      }),
    );

  addApiOptions(addOutputOptions(invitations.command("sent")))
    .description("List the pending invitations you sent, across all your accounts")
    .addHelpText("after", "\nExamples:\n  $ allot invitations sent\n  $ allot invitations sent --csv\n")
    .action((options: Options) =>
      run(options, async () => {
        const client = await openApiClient(env, options);
        emitList(
          await client.call(invitationRoutes.listMine, {}),
          COLUMNS,
          options,
          "You have no pending invitations.",
        );
      }),
    );

  addApiOptions(invitations.command("cancel"))
    .description("Cancel a pending invitation you sent, by its token or the invitee's email")
    .argument("<invitation>", "the invitation's token as the lists show it, or the invited address")
    .option("--account <name-or-id>", "the account, when you invited the same address to several")
    .option("--json", "print JSON for scripts")
    .addHelpText(
      "after",
      "\nExamples:\n  $ allot invitations cancel sam@example.com\n  $ allot invitations cancel TOKEN --json\n",
    )
    .action((reference: string, options: ApiOptions & { account?: string; json?: boolean }) =>
      run(options, async () => {
        const client = await openApiClient(env, options);
        const accountId = options.account ? await resolveAccountId(client, options.account) : undefined;
        const wanted = reference.trim().toLowerCase();
        const sent = await client.call(invitationRoutes.listMine, {});
        const matches = sent.filter(
          (i) =>
            (i.token.toLowerCase() === wanted || i.invitee_email.toLowerCase() === wanted) &&
            (accountId === undefined || i.bank_account_id === accountId),
        );
        if (matches.length > 1)
          throw new UsageError(
            `You invited ${reference} to several accounts (${matches.map((i) => i.bank_account_name).join(", ")}): pass --account.`,
            "ambiguous_invitation",
          );
        const invitation = matches[0];
        if (!invitation)
          throw new UsageError(
            `None of your pending invitations matches '${reference}': see \`allot invitations sent\`.`,
            "unknown_invitation",
          );
        await client.call(invitationRoutes.cancel, {
          id: invitation.bank_account_id,
          token: invitation.token,
        });
        if (options.json)
          printJson({
            id: invitation.id,
            token: invitation.token,
            invitee_email: invitation.invitee_email,
            bank_account_id: invitation.bank_account_id,
            cancelled: true,
          });
        else
          process.stdout.write(
            shown`Cancelled the invitation of ${invitation.invitee_email} to '${invitation.bank_account_name}'.\n`,
          );
      }),
    );
}

async function run(options: { json?: boolean }, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    reportNeedingLogin(error, Boolean(options.json));
  }
}
