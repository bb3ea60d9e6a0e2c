import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStripeProvider } from "./stripe-provider";
import { signedStripeEvent, startStripeStandIn, stripePaidInvoice, stripeSubscription, type StripeStandIn } from "./stripe-stand-in";

/*
 * The Stripe adapter with the real SDK: checkout against a loopback stand-in of Stripe's API, and
 * events signed by the SDK's signer, read in both the current API version's shapes and the earlier ones.
 */

const WEBHOOK_SECRET = "whsec_test_stripe_provider";
const ACCOUNT_ID = "0b6f7a52-3c1e-4f59-9d43-2a8e5c1b7f10";
const PERIOD_END = 1_900_000_000;

let standIn: StripeStandIn;
beforeAll(async () => {
  standIn = await startStripeStandIn();
});
afterAll(async () => {
  await standIn?.close();
});

function provider() {
  return createStripeProvider({ secretKey: "sk_test_provider", webhookSecret: WEBHOOK_SECRET, priceId: "price_test_developer", apiBaseUrl: standIn.baseUrl });
}

function read(type: string, object: Record<string, unknown>) {
  const delivery = signedStripeEvent(type, object, WEBHOOK_SECRET);
  return provider().readEvent(delivery.body, { "stripe-signature": delivery.signature });
}

describe("Stripe checkout", () => {
  it("starts a subscription checkout of the plan's price for the account and returns Stripe's url", async () => {
    const { url } = await provider().startCheckout({
      accountId: ACCOUNT_ID,
      email: "dev@example.test",
      successUrl: "https://directory.test/account?paid=1",
      cancelUrl: "https://directory.test/account",
    });
    const checkout = standIn.checkouts.at(-1)!;
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/cs_test_[0-9a-f]+$/);
    expect(checkout.authorization).toBe("Bearer sk_test_provider");
    expect(checkout.params).toMatchObject({
      mode: "subscription",
      "line_items[0][price]": "price_test_developer",
      "line_items[0][quantity]": "1",
      client_reference_id: ACCOUNT_ID,
      customer_email: "dev@example.test",
      "subscription_data[metadata][accountId]": ACCOUNT_ID,
      "metadata[accountId]": ACCOUNT_ID,
      success_url: "https://directory.test/account?paid=1",
      cancel_url: "https://directory.test/account",
    });
  });

  it("fails, and soon, when Stripe cannot be reached", async () => {
    const gone = await startStripeStandIn();
    await gone.close();
    const unreachable = createStripeProvider({
      secretKey: "sk_test",
      webhookSecret: WEBHOOK_SECRET,
      priceId: "price_test_developer",
      apiBaseUrl: gone.baseUrl,
    });
    const started = Date.now();
    await expect(
      unreachable.startCheckout({ accountId: ACCOUNT_ID, email: "a@b.test", successUrl: "https://x.test", cancelUrl: "https://x.test" }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("Stripe events in the plan's terms", () => {
  it("reads a subscription's status, account, customer and period end (on its item, current API)", async () => {
    const subscription = stripeSubscription({ id: "sub_1", status: "active", periodEnd: PERIOD_END, accountId: ACCOUNT_ID, customer: "cus_1" });
    expect(await read("customer.subscription.created", subscription)).toMatchObject({
      type: "customer.subscription.created",
      action: "activate",
      accountId: ACCOUNT_ID,
      subscriptionId: "sub_1",
      customerId: "cus_1",
      activeUntil: new Date(PERIOD_END * 1000),
    });
    const statuses: Record<string, string> = {
      trialing: "activate",
      past_due: "past_due",
      unpaid: "past_due",
      canceled: "cancel",
      incomplete_expired: "cancel",
      incomplete: "ignore",
      paused: "ignore",
    };
    for (const [status, action] of Object.entries(statuses)) {
      const event = await read("customer.subscription.updated", { ...subscription, status });
      expect(event.action, status).toBe(action);
    }
    expect((await read("customer.subscription.deleted", { ...subscription, status: "canceled" })).action).toBe("cancel");
  });

  it("reads the earlier shape: the period end on the subscription itself, the customer expanded", async () => {
    const earlier = {
      id: "sub_2",
      object: "subscription",
      status: "active",
      metadata: {},
      customer: { id: "cus_2", object: "customer" },
      current_period_end: PERIOD_END,
    };
    expect(await read("customer.subscription.updated", earlier)).toMatchObject({
      action: "activate",
      accountId: null,
      subscriptionId: "sub_2",
      customerId: "cus_2",
      activeUntil: new Date(PERIOD_END * 1000),
    });
  });

  it("reads a paid invoice as a renewal to its line's period end, in the current and the earlier shape", async () => {
    const invoice = stripePaidInvoice({ id: "sub_3", status: "active", periodEnd: PERIOD_END, accountId: ACCOUNT_ID, customer: "cus_3" });
    const renewal = { action: "activate", accountId: ACCOUNT_ID, subscriptionId: "sub_3", customerId: "cus_3", activeUntil: new Date(PERIOD_END * 1000) };
    expect(await read("invoice.paid", invoice)).toMatchObject(renewal);
    const { parent: _parent, ...withoutParent } = invoice;
    const earlier = { ...withoutParent, subscription: "sub_3", subscription_details: { metadata: { accountId: ACCOUNT_ID } } };
    expect(await read("invoice.paid", earlier)).toMatchObject(renewal);
    // An invoice of no subscription is not the plan's.
    expect((await read("invoice.paid", { ...withoutParent })).action).toBe("ignore");
  });

  it("ignores any other event", async () => {
    expect(await read("checkout.session.completed", { id: "cs_1", object: "checkout.session" })).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: "checkout.session.completed",
      action: "ignore",
    });
  });

  it("refuses a body it did not sign, a wrong secret and a missing header as invalid input", async () => {
    const delivery = signedStripeEvent(
      "customer.subscription.created",
      stripeSubscription({ id: "sub_4", status: "active", periodEnd: PERIOD_END }),
      WEBHOOK_SECRET,
    );
    const refused = { code: "INVALID_INPUT" };
    await expect(provider().readEvent(`${delivery.body} `, { "stripe-signature": delivery.signature })).rejects.toMatchObject(refused);
    await expect(provider().readEvent(delivery.body, {})).rejects.toMatchObject(refused);
    const other = createStripeProvider({ secretKey: "sk_test", webhookSecret: "whsec_other", priceId: "p" });
    await expect(other.readEvent(delivery.body, { "stripe-signature": delivery.signature })).rejects.toMatchObject(refused);
    expect(await provider().readEvent(delivery.body, { "stripe-signature": delivery.signature })).toMatchObject({ id: delivery.id, action: "activate" });
  });
});
