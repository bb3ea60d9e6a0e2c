import Stripe from "stripe";
import { DomainError } from "../../errors";
import type { BillingEvent, PaymentProvider, StartCheckoutParams } from "./payment-provider.types";
import { billingEventOfStripeEvent } from "./stripe-events";

export interface StripeSettings {
  secretKey: string;
  /** The signing secret of the webhook endpoint (whsec_...), which Stripe's signatures are checked against. */
  webhookSecret: string;
  /** The price of the developer plan (price_...): 4,999 INR a month, set up in Stripe's dashboard. */
  priceId: string;
  /** Tests only: where a loopback stand-in of Stripe's API listens (stripe-stand-in.ts), e.g. "http://127.0.0.1:4242". */
  apiBaseUrl?: string;
}

/** A checkout waits on Stripe while a person waits on us: one retry, and a few seconds each. */
const STRIPE_TIMEOUT_MS = 5_000;
const STRIPE_NETWORK_RETRIES = 1;

export function createStripeProvider(settings: StripeSettings): PaymentProvider {
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: STRIPE_NETWORK_RETRIES,
    timeout: STRIPE_TIMEOUT_MS,
    // No request metrics sent back to Stripe: nothing leaves but the calls themselves.
    telemetry: false,
    ...hostSettingsOf(settings.apiBaseUrl),
  });

  return {
    name: "stripe",
    checkoutOrigin: "https://checkout.stripe.com",

    async startCheckout(params: StartCheckoutParams): Promise<{ url: string }> {
      const session = await stripe.checkout.sessions.create({
        mode: "subscription",
        line_items: [{ price: settings.priceId, quantity: 1 }],
        client_reference_id: params.accountId,
        customer_email: params.email,
        // The subscription carries the account, so every later event of it names the account.
        subscription_data: { metadata: { accountId: params.accountId } },
        metadata: { accountId: params.accountId },
        success_url: params.successUrl,
        cancel_url: params.cancelUrl,
      });
      if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a url`);
      return { url: session.url };
    },

    async readEvent(rawBody: string, headers: Record<string, string | undefined>): Promise<BillingEvent> {
      const signature = headers["stripe-signature"];
      if (!signature) throw new DomainError("INVALID_INPUT", "The event carries no Stripe-Signature header");
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, settings.webhookSecret);
      } catch (error) {
        // A wrong or stale signature, or a body that is not the one signed: the sender's fault, never ours.
        if (error instanceof Stripe.errors.StripeSignatureVerificationError || error instanceof SyntaxError) {
          throw new DomainError("INVALID_INPUT", "The event's Stripe signature does not match its body");
        }
        throw error;
      }
      return billingEventOfStripeEvent(event);
    },
  };
}

/** The SDK's host, port and protocol for a base URL; none (Stripe's own API) without one. */
function hostSettingsOf(apiBaseUrl: string | undefined): { host?: string; port?: number; protocol?: "http" | "https" } {
  if (!apiBaseUrl) return {};
  const url = new URL(apiBaseUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  const port = url.port ? Number(url.port) : protocol === "http" ? 80 : 443;
  return { host: url.hostname, port, protocol };
}
