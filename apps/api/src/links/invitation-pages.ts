import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { sendProblem } from "./api-problems";
import { callApi, segment } from "./call-api";
import { html } from "./html";
import { sendNotFound, sendPage } from "./layout";

// What the public GET answers (docs/spec/api-spec.md §Invitations); only what the pages show is read. A
// closed invitation answers its status alone, so only a pending one has anything to show.
const PendingInvitation = z.object({
  status: z.literal("pending"),
  invitee_email: z.string(),
  bank_account_name: z.string(),
  bank_name: z.string(),
  current_owners: z.array(z.string()),
  is_new_user: z.boolean(),
  expires_at: z.string(),
});
const InvitationDetails = z.union([PendingInvitation, z.object({ status: z.string() })]);
type PendingInvitation = z.infer<typeof PendingInvitation>;
type InvitationDetails = z.infer<typeof InvitationDetails>;
const isPending = (details: InvitationDetails): details is PendingInvitation => details.status === "pending";

type TokenRequest = FastifyRequest<{ Params: { token: string } }>;

const when = (iso: string) =>
  html`<time datetime="${iso}">${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC</time>`;

function closedSentence(status: string) {
  switch (status) {
    case "accepted":
      return "This invitation has already been accepted.";
    case "declined":
      return "This invitation has been declined.";
    case "cancelled":
      return "The person who sent this invitation cancelled it.";
    case "expired":
      return "This invitation has expired.";
    default:
      return `This invitation is ${status}.`;
  }
}

function detailsList(details: PendingInvitation) {
  return html`<dl>
<dt>Account</dt><dd>${details.bank_account_name}</dd>
<dt>Bank</dt><dd>${details.bank_name}</dd>
<dt>Owners</dt><dd>${details.current_owners.join(", ")}</dd>
<dt>Invited</dt><dd>${details.invitee_email}</dd>
<dt>Expires</dt><dd>${when(details.expires_at)}</dd>
</dl>`;
}

/**
 * The invitation, through the public GET endpoint. Answers the page itself (and returns null) when
 * the token is unknown or the API refused.
 */
async function loadInvitation(
  app: FastifyInstance,
  request: TokenRequest,
  reply: FastifyReply,
): Promise<InvitationDetails | null> {
  const answer = await callApi(app, request, "GET", `/v1/invitations/${segment(request.params.token)}/`);
  if (answer.status === 404) {
    await sendNotFound(reply);
    return null;
  }
  const details = answer.status === 200 ? InvitationDetails.safeParse(answer.body) : null;
  if (!details?.success) {
    await sendProblem(reply, answer, "The invitation could not be opened");
    return null;
  }
  return details.data;
}

/**
 * `/links/invitations/{token}`: the invitation with Accept and Decline buttons (plain forms). Only
 * the POSTs act, each through its JSON endpoint; GET reads.
 */
export function registerInvitationPages(links: FastifyInstance, app: FastifyInstance) {
  links.get("/invitations/:token", async (request: TokenRequest, reply) => {
    const details = await loadInvitation(app, request, reply);
    if (!details) return reply;
    const base = `/links/invitations/${segment(request.params.token)}`;
    const body = isPending(details)
      ? html`${detailsList(details)}
<p>You are invited to co-own this bank account on Allot, with its budgets and transactions.</p>
<form method="post" action="${base}/accept"><button type="submit">Accept</button></form>
<form method="post" action="${base}/decline"><button type="submit" class="secondary">Decline</button></form>
${details.is_new_user ? html`<p>After you accept, we email you a link to choose your password.</p>` : ""}`
      : html`<p class="notice">${closedSentence(details.status)} There is nothing more to do here.</p>`;
    return sendPage(reply, 200, "Invitation to share a bank account", body);
  });

  /**
   * A button's POST: the invitation is read first (an unknown token is the 404 page), then the
   * public endpoint acts; its refusal (expired, already answered) is shown as it gave it. Only a
   * pending invitation can be answered, so a success always has the details read before it.
   */
  const answer =
    (
      action: "accept" | "decline",
      failure: string,
      done: (details: PendingInvitation, reply: FastifyReply) => FastifyReply,
    ) =>
    async (request: TokenRequest, reply: FastifyReply) => {
      const details = await loadInvitation(app, request, reply);
      if (!details) return reply;
      const result = await callApi(
        app,
        request,
        "POST",
        `/v1/invitations/${segment(request.params.token)}/${action}/`,
      );
      if (result.status !== 200 || !isPending(details)) return sendProblem(reply, result, failure);
      return done(details, reply);
    };

  links.post(
    "/invitations/:token/accept",
    answer("accept", "The invitation could not be accepted", (details, reply) => {
      const next = details.is_new_user
        ? html`<p>Check your email at <strong>${details.invitee_email}</strong>: we sent you a link to choose
your password. Then sign in to Allot.</p>`
        : html`<p>Sign in to Allot to see the account.</p>`;
      return sendPage(
        reply,
        200,
        "Invitation accepted",
        html`<p class="success" role="status">You now co-own
<strong>${details.bank_account_name}</strong> (${details.bank_name}).</p>
${next}`,
      );
    }),
  );

  links.post(
    "/invitations/:token/decline",
    answer("decline", "The invitation could not be declined", (details, reply) =>
      sendPage(
        reply,
        200,
        "Invitation declined",
        html`<p class="success" role="status">You declined the
invitation to co-own <strong>${details.bank_account_name}</strong> (${details.bank_name}).</p>
<p>Nothing was shared with you. You can close this page.</p>`,
      ),
    ),
  );
}
