/** One delivery attempt as it goes on the wire. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What came back: the status (null when none came), how long it took, and what went wrong. */
export interface WebhookResponse {
  status: number | null;
  timeMs: number;
  /** Why the attempt failed (a refused address, a timeout, the start of an error answer); null on 2xx. */
  error: string | null;
}

/** Sends webhook requests (packages/webhook-poster over HTTP); it enforces the address policy on each. */
export interface WebhookPoster {
  post(request: WebhookRequest): Promise<WebhookResponse>;
}
