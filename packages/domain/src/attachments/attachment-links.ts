import type { AttachmentField } from "./read-attachment-file";

/** What an answer needs to name a download: the service's public address (PUBLIC_BASE_URL). */
export interface AttachmentLinks {
  publicBaseUrl: string;
}

/** `{PUBLIC_BASE_URL}/api/v1/transactions/{id}/{field}/`: where a receipt file is downloaded. */
export const attachmentUrl = (links: AttachmentLinks, transactionId: string, field: AttachmentField) =>
  `${links.publicBaseUrl.replace(/\/+$/, "")}/api/v1/transactions/${transactionId}/${field}/`;
