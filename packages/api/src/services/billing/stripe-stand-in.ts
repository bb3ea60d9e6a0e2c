import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/*
 * For tests: a loopback stand-in of the part of Stripe's HTTP API the provider calls, and events
 * signed as Stripe signs them (with the SDK's own signer), so the real SDK runs end to end.
 */

/** One checkout session request as the SDK sent it: the form fields as written (`line_items[0][price]`, ...). */
export interface ReceivedCheckout {
  params: Record<string, string>;
  authorization: string | undefined;
}

export interface StripeStandIn {
  /** For createStripeProvider's apiBaseUrl. */
  baseUrl: string;
  checkouts: ReceivedCheckout[];
  close(): Promise<void>;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const checkouts: ReceivedCheckout[] = [];
  const server = createServer((request, response) => {
    void answer(request, response, checkouts).catch((error: unknown) => {
      sendJson(response, 500, { error: { type: "api_error", message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    checkouts,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

async function answer(request: IncomingMessage, response: ServerResponse, checkouts: ReceivedCheckout[]): Promise<void> {
  const body = await readBody(request);
  if (request.method !== "POST" || request.url !== "/v1/checkout/sessions") {
    sendJson(response, 404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${request.method}: ${request.url})` } });
    return;
  }
  const params = Object.fromEntries(new URLSearchParams(body));
  checkouts.push({ params, authorization: request.headers.authorization });
  const id = `cs_test_${randomBytes(12).toString("hex")}`;
  sendJson(response, 200, {
    id,
    object: "checkout.session",
    url: `https://checkout.stripe.test/c/${id}`,
    mode: params.mode ?? null,
    status: "open",
    client_reference_id: params.client_reference_id ?? null,
    customer_email: params.customer_email ?? null,
    metadata: { accountId: params["metadata[accountId]"] ?? null },
    success_url: params.success_url ?? null,
    cancel_url: params.cancel_url ?? null,
    livemode: false,
  });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

/** A webhook delivery: the raw body and its Stripe-Signature header, as the server door receives them. */
export interface SignedStripeEvent {
  id: string;
  body: string;
  signature: string;
}

/** An event of `type` about `object`, signed with `secret` as Stripe signs a delivery now. */
export function signedStripeEvent(
  type: string,
  object: Record<string, unknown>,
  secret: string,
  id = `evt_${randomBytes(12).toString("hex")}`,
): SignedStripeEvent {
  const body = JSON.stringify({
    id,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  });
  return { id, body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) };
}

export interface SubscriptionFixture {
  id: string;
  status: string;
  /** The period end, in seconds since the epoch. */
  periodEnd: number;
  accountId?: string;
  customer?: string;
}

/** A subscription in the SDK's default API version: the period on its item. */
export function stripeSubscription(fixture: SubscriptionFixture): Record<string, unknown> {
  const periodStart = fixture.periodEnd - 30 * 24 * 3600;
  return {
    id: fixture.id,
    object: "subscription",
    customer: fixture.customer ?? "cus_test_1",
    status: fixture.status,
    metadata: fixture.accountId ? { accountId: fixture.accountId } : {},
    items: {
      object: "list",
      data: [{ id: `si_${fixture.id}`, object: "subscription_item", current_period_start: periodStart, current_period_end: fixture.periodEnd }],
      has_more: false,
    },
  };
}

/** A paid subscription invoice in the SDK's default API version: its subscription under `parent`, its period on its line. */
export function stripePaidInvoice(fixture: SubscriptionFixture): Record<string, unknown> {
  const periodStart = fixture.periodEnd - 30 * 24 * 3600;
  const metadata = fixture.accountId ? { accountId: fixture.accountId } : {};
  return {
    id: `in_${randomBytes(8).toString("hex")}`,
    object: "invoice",
    customer: fixture.customer ?? "cus_test_1",
    status: "paid",
    billing_reason: "subscription_cycle",
    // The invoice's own period is the one billed in arrears: the period just over.
    period_start: periodStart - 30 * 24 * 3600,
    period_end: periodStart,
    parent: { type: "subscription_details", quote_details: null, subscription_details: { subscription: fixture.id, metadata } },
    lines: {
      object: "list",
      data: [{ id: `il_${fixture.id}`, object: "line_item", period: { start: periodStart, end: fixture.periodEnd } }],
      has_more: false,
    },
  };
}
