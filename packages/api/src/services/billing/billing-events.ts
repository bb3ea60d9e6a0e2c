import { eq } from "drizzle-orm";
import { accountPlans, accounts, billingEvents, type AccountPlan, type Db } from "@directory/db";
import { setPlan, type PlanChange } from "../accounts/plans";
import type { BillingEvent } from "./payment-provider.types";

/** applied: the plan changed; duplicate: the event was seen before; ignored: recorded, but it changes no plan. */
export type BillingEventOutcome = "applied" | "duplicate" | "ignored";

type PlanEvent = Extract<BillingEvent, { action: "activate" | "past_due" | "cancel" }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Applies a provider's event to the plan it concerns, once: the event's id is recorded in the same
 * transaction as the change, so a redelivery (providers deliver at least once) changes nothing,
 * and two deliveries at once wait on each other's row. An event for no known account is recorded
 * and reported "ignored", for the caller to log.
 */
export async function applyBillingEvent(db: Db, providerName: string, event: BillingEvent): Promise<BillingEventOutcome> {
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(billingEvents)
      .values({ id: event.id, provider: providerName, type: event.type })
      .onConflictDoNothing({ target: billingEvents.id })
      .returning({ id: billingEvents.id });
    if (recorded.length === 0) return "duplicate";
    if (event.action === "ignore") return "ignored";

    const accountId = await accountOfEvent(tx, event);
    if (!accountId) return "ignored";
    // Locked, so events of one account racing each other apply one after the other.
    const [plan] = await tx.select().from(accountPlans).where(eq(accountPlans.accountId, accountId)).for("update");
    const change = planChangeOf(event, plan ?? null, providerName);
    if (!change) return "ignored";
    await setPlan(tx, accountId, change);
    return "applied";
  });
}

/** The account the event names (checkout puts it in the subscription's metadata), else the one holding its subscription. */
async function accountOfEvent(db: Db, event: PlanEvent): Promise<string | null> {
  // Not a uuid: no account has it, and PostgreSQL would refuse the comparison.
  if (event.accountId && UUID.test(event.accountId)) {
    const [named] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, event.accountId));
    if (named) return named.id;
  }
  const [holder] = await db
    .select({ accountId: accountPlans.accountId })
    .from(accountPlans)
    .where(eq(accountPlans.providerSubscriptionId, event.subscriptionId));
  return holder?.accountId ?? null;
}

/**
 * The plan after the event, or null when the event changes nothing: a provider delivers events in
 * no guaranteed order, so an activation never shortens the time already paid for (or granted),
 * and a past-due or cancellation only touches the plan its subscription holds (not an
 * operator's grant, nor the plan of a newer subscription).
 */
function planChangeOf(event: PlanEvent, plan: AccountPlan | null, source: string): PlanChange | null {
  const sameSubscription = plan !== null && plan.providerSubscriptionId === event.subscriptionId;
  const ids = {
    providerSubscriptionId: event.subscriptionId,
    providerCustomerId: event.customerId ?? (sameSubscription ? plan.providerCustomerId : null),
  };
  switch (event.action) {
    case "activate": {
      const activeUntil = latest(event.activeUntil, plan?.activeUntil ?? null);
      return activeUntil ? { status: "active", activeUntil, source, ...ids } : null;
    }
    case "past_due": {
      if (plan && !sameSubscription) return null;
      const activeUntil = plan?.activeUntil ?? event.activeUntil;
      return activeUntil ? { status: "past_due", activeUntil, source, ...ids } : null;
    }
    case "cancel":
      if (!plan || !sameSubscription) return null;
      return { status: "canceled", activeUntil: plan.activeUntil, source, ...ids };
  }
}

function latest(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a.getTime() >= b.getTime() ? a : b;
}
