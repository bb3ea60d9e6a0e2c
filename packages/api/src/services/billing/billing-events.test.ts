import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountPlans, billingEvents } from "@directory/db";
import { createContext, type ContextLogger } from "../../context";
import type { DirectoryMeta } from "../../procedures/meta";
import { createCallerFactory } from "../../procedures/trpc-instance";
import { billingRouter } from "../../routers/billing";
import { TEST_BASE_URL } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { currentPlanOf, ensureAccount, grantPlan } from "../accounts/plans";
import type { PaymentProvider } from "./payment-provider.types";
import { createStripeProvider } from "./stripe-provider";
import { signedStripeEvent, stripePaidInvoice, stripeSubscription, type SignedStripeEvent } from "./stripe-stand-in";

/*
 * A subscription's life as Stripe tells it, through the webhook procedure: real signatures (the
 * SDK's signer and checker), a real database, the plan read back as the quota reads it.
 */

const WEBHOOK_SECRET = "whsec_test_billing_events";
const DAY_SECONDS = 24 * 3600;
const nowSeconds = () => Math.floor(Date.now() / 1000);

let database: TestDatabase;
let provider: PaymentProvider;
const warnings: { fields: Record<string, unknown>; message: string }[] = [];
const log: ContextLogger = { info() {}, warn: (fields, message) => warnings.push({ fields, message }) };

beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
  // No request reaches Stripe's API here: reading events needs only the signing secret.
  provider = createStripeProvider({ secretKey: "sk_test_unused", webhookSecret: WEBHOOK_SECRET, priceId: "price_test_developer" });
});
afterAll(async () => {
  await database?.destroy();
});

function webhook(paymentProvider: PaymentProvider | null = provider) {
  const caller = createCallerFactory(billingRouter)(createContext({ db: database.db, publicBaseUrl: TEST_BASE_URL, paymentProvider, log }));
  return (delivery: SignedStripeEvent) => caller.receiveProviderEvent({ body: delivery.body, signature: delivery.signature });
}

async function recordedEvents(id?: string): Promise<number> {
  const [row] = await database.db
    .select({ n: count() })
    .from(billingEvents)
    .where(id ? eq(billingEvents.id, id) : undefined);
  return row!.n;
}

describe("Stripe's events keep the developer plan", () => {
  it("activates on a subscription, renews on a paid invoice, keeps counting while past due, and ends on deletion", async () => {
    const account = await ensureAccount(database.db, "lifecycle@billing.test");
    const firstEnd = nowSeconds() + 30 * DAY_SECONDS;
    const subscription = { id: "sub_lifecycle", accountId: account.id, customer: "cus_lifecycle" };

    const created = signedStripeEvent(
      "customer.subscription.created",
      stripeSubscription({ ...subscription, status: "active", periodEnd: firstEnd }),
      WEBHOOK_SECRET,
    );
    expect(await webhook()(created)).toEqual({ received: true, outcome: "applied" });
    expect(await currentPlanOf(database.db, account.id)).toEqual({
      name: "developer",
      status: "active",
      activeUntil: new Date(firstEnd * 1000).toISOString(),
      source: "stripe",
    });
    const [row] = await database.db.select().from(accountPlans).where(eq(accountPlans.accountId, account.id));
    expect(row).toMatchObject({ providerSubscriptionId: "sub_lifecycle", providerCustomerId: "cus_lifecycle" });

    // Stripe delivers at least once: the same event again changes nothing.
    expect(await webhook()(created)).toEqual({ received: true, outcome: "duplicate" });
    expect(await recordedEvents(created.id)).toBe(1);

    // The renewal names the account only through its subscription (no metadata): found by the subscription id.
    const secondEnd = firstEnd + 30 * DAY_SECONDS;
    const renewal = signedStripeEvent("invoice.paid", stripePaidInvoice({ id: "sub_lifecycle", status: "active", periodEnd: secondEnd }), WEBHOOK_SECRET);
    expect(await webhook()(renewal)).toEqual({ received: true, outcome: "applied" });
    expect((await currentPlanOf(database.db, account.id))?.activeUntil).toBe(new Date(secondEnd * 1000).toISOString());

    // A late, older activation does not take the renewed time back.
    const stale = signedStripeEvent(
      "customer.subscription.updated",
      stripeSubscription({ ...subscription, status: "active", periodEnd: firstEnd }),
      WEBHOOK_SECRET,
    );
    expect(await webhook()(stale)).toEqual({ received: true, outcome: "applied" });
    expect((await currentPlanOf(database.db, account.id))?.activeUntil).toBe(new Date(secondEnd * 1000).toISOString());

    const pastDue = signedStripeEvent(
      "customer.subscription.updated",
      stripeSubscription({ ...subscription, status: "past_due", periodEnd: secondEnd + 30 * DAY_SECONDS }),
      WEBHOOK_SECRET,
    );
    expect(await webhook()(pastDue)).toEqual({ received: true, outcome: "applied" });
    // Past due still counts, until the time already paid for.
    expect(await currentPlanOf(database.db, account.id)).toMatchObject({ status: "past_due", activeUntil: new Date(secondEnd * 1000).toISOString() });

    const deleted = signedStripeEvent(
      "customer.subscription.deleted",
      stripeSubscription({ ...subscription, status: "canceled", periodEnd: secondEnd }),
      WEBHOOK_SECRET,
    );
    expect(await webhook()(deleted)).toEqual({ received: true, outcome: "applied" });
    expect(await currentPlanOf(database.db, account.id)).toBeNull();
    const [ended] = await database.db.select().from(accountPlans).where(eq(accountPlans.accountId, account.id));
    expect(ended?.status).toBe("canceled");
  });

  it("refuses a tampered body, a wrong secret and a missing signature, and writes nothing", async () => {
    const account = await ensureAccount(database.db, "tampered@billing.test");
    const before = await recordedEvents();
    const genuine = signedStripeEvent(
      "customer.subscription.created",
      stripeSubscription({ id: "sub_tampered", accountId: account.id, status: "active", periodEnd: nowSeconds() + 30 * DAY_SECONDS }),
      WEBHOOK_SECRET,
    );
    const tampered = { ...genuine, body: genuine.body.replace('"status":"active"', '"status":"trialing"') };
    expect(tampered.body).not.toBe(genuine.body);
    const wrongSecret = signedStripeEvent("customer.subscription.created", JSON.parse(genuine.body).data.object, "whsec_someone_else");
    for (const delivery of [tampered, wrongSecret, { ...genuine, signature: "" }, { ...genuine, signature: "t=1,v1=00" }]) {
      await expect(webhook()(delivery)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    expect(await recordedEvents()).toBe(before);
    expect(await currentPlanOf(database.db, account.id)).toBeNull();
  });

  it("records an event for an unknown subscription as ignored, and says so in the log", async () => {
    const unknown = signedStripeEvent(
      "invoice.paid",
      stripePaidInvoice({ id: "sub_nobody", status: "active", periodEnd: nowSeconds() + DAY_SECONDS }),
      WEBHOOK_SECRET,
    );
    expect(await webhook()(unknown)).toEqual({ received: true, outcome: "ignored" });
    expect(await recordedEvents(unknown.id)).toBe(1);
    expect(await database.db.select().from(accountPlans).where(eq(accountPlans.providerSubscriptionId, "sub_nobody"))).toEqual([]);
    expect(warnings.at(-1)?.fields).toMatchObject({ eventId: unknown.id, subscriptionId: "sub_nobody" });

    // A metadata account id that is no uuid is no account either (and no database error).
    const garbled = signedStripeEvent(
      "customer.subscription.created",
      stripeSubscription({ id: "sub_garbled", accountId: "not-a-uuid", status: "active", periodEnd: nowSeconds() + DAY_SECONDS }),
      WEBHOOK_SECRET,
    );
    expect(await webhook()(garbled)).toEqual({ received: true, outcome: "ignored" });

    const other = signedStripeEvent("customer.created", { id: "cus_other", object: "customer" }, WEBHOOK_SECRET);
    expect(await webhook()(other)).toEqual({ received: true, outcome: "ignored" });
  });

  it("leaves an operator's grant alone when some other subscription of the account ends", async () => {
    const until = new Date(Date.now() + 90 * DAY_SECONDS * 1000);
    const granted = await grantPlan(database.db, { email: "granted@billing.test", until });
    const account = await ensureAccount(database.db, "granted@billing.test");
    const deleted = signedStripeEvent(
      "customer.subscription.deleted",
      stripeSubscription({ id: "sub_elsewhere", accountId: account.id, status: "canceled", periodEnd: nowSeconds() }),
      WEBHOOK_SECRET,
    );
    expect(await webhook()(deleted)).toEqual({ received: true, outcome: "ignored" });
    expect(await currentPlanOf(database.db, account.id)).toEqual(granted);
  });

  it("is an open tRPC procedure, never a REST operation", () => {
    const meta = billingRouter._def.procedures.receiveProviderEvent._def.meta as DirectoryMeta | undefined;
    expect(meta).toMatchObject({ access: "open", cache: "private" });
    expect(meta?.openapi).toBeUndefined();
  });

  it("answers 404 when no payment provider is configured", async () => {
    const delivery = signedStripeEvent("customer.created", { id: "cus_x", object: "customer" }, WEBHOOK_SECRET);
    await expect(webhook(null)(delivery)).rejects.toMatchObject({ code: "NOT_FOUND", message: "No payment provider is configured" });
    expect(await recordedEvents(delivery.id)).toBe(0);
  });
});
