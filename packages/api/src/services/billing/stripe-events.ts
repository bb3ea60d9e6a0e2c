import type Stripe from "stripe";
import type { BillingEvent } from "./payment-provider.types";

/*
 * Stripe's events in the plan's terms. The SDK's types follow its default API version, where a
 * subscription's period lives on its items and an invoice names its subscription under
 * `parent.subscription_details`; an account whose webhook endpoint is pinned to an older version
 * still sends the earlier shapes (`current_period_end` on the subscription, `subscription` and
 * `subscription_details` on the invoice), so both are read.
 */

/** Fields of the earlier API versions, absent from the SDK's current types. */
interface EarlierSubscriptionFields {
  current_period_end?: number | null;
}
interface EarlierInvoiceFields {
  subscription?: string | { id: string } | null;
  subscription_details?: { metadata?: Record<string, string> | null } | null;
}

type PlanAction = "activate" | "past_due" | "cancel";

/** Stripe's subscription statuses that change the plan; the rest (incomplete, paused, ...) are ignored. */
const ACTION_OF_STATUS: Record<string, PlanAction> = {
  active: "activate",
  trialing: "activate",
  past_due: "past_due",
  unpaid: "past_due",
  canceled: "cancel",
  incomplete_expired: "cancel",
};

export function billingEventOfStripeEvent(event: Stripe.Event): BillingEvent {
  const ignore: BillingEvent = { id: event.id, type: event.type, action: "ignore" };
  switch (event.type) {
    case "customer.subscription.created":
    case "customer.subscription.updated": {
      const action = ACTION_OF_STATUS[event.data.object.status];
      return action ? subscriptionEvent(event, event.data.object, action) : ignore;
    }
    case "customer.subscription.deleted":
      return subscriptionEvent(event, event.data.object, "cancel");
    case "invoice.paid":
      return invoicePaidEvent(event, event.data.object) ?? ignore;
    default:
      return ignore;
  }
}

function subscriptionEvent(event: Stripe.Event, subscription: Stripe.Subscription, action: PlanAction): BillingEvent {
  return {
    id: event.id,
    type: event.type,
    action,
    accountId: accountIdIn(subscription.metadata),
    subscriptionId: subscription.id,
    customerId: idOf(subscription.customer),
    activeUntil: subscriptionPeriodEnd(subscription),
  };
}

/** A paid subscription invoice renews the plan to the end of the period it paid for; any other invoice is not ours. */
function invoicePaidEvent(event: Stripe.Event, invoice: Stripe.Invoice): BillingEvent | null {
  const earlier = invoice as Stripe.Invoice & EarlierInvoiceFields;
  const details = invoice.parent?.subscription_details ?? null;
  const subscriptionId = idOf(details?.subscription ?? earlier.subscription ?? null);
  if (!subscriptionId) return null;
  return {
    id: event.id,
    type: event.type,
    action: "activate",
    accountId: accountIdIn(details?.metadata ?? earlier.subscription_details?.metadata ?? null),
    subscriptionId,
    customerId: idOf(invoice.customer),
    activeUntil: invoicePeriodEnd(invoice),
  };
}

/** The latest period end of the subscription's items (current versions), or of the subscription itself (earlier ones). */
function subscriptionPeriodEnd(subscription: Stripe.Subscription): Date | null {
  const itemEnds = (subscription.items?.data ?? []).map((item) => item.current_period_end);
  const earlierEnd = (subscription as Stripe.Subscription & EarlierSubscriptionFields).current_period_end;
  return latest([...itemEnds, earlierEnd]);
}

/**
 * The end of the period the invoice's lines pay for. Not the invoice's own `period_end`: for a
 * subscription invoice that is the end of the period billed in arrears, i.e. the one just over.
 */
function invoicePeriodEnd(invoice: Stripe.Invoice): Date | null {
  return latest((invoice.lines?.data ?? []).map((line) => line.period?.end));
}

function latest(epochSeconds: (number | null | undefined)[]): Date | null {
  const known = epochSeconds.filter((value): value is number => typeof value === "number" && Number.isFinite(value));
  return known.length > 0 ? new Date(Math.max(...known) * 1000) : null;
}

function accountIdIn(metadata: Record<string, string> | null | undefined): string | null {
  const accountId = metadata?.accountId?.trim();
  return accountId ? accountId : null;
}

/** Stripe sends a related object as its id, or expanded as the object. */
function idOf(related: string | { id: string } | null | undefined): string | null {
  if (!related) return null;
  return typeof related === "string" ? related : related.id;
}
