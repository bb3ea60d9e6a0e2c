import { check, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { accounts } from "./accounts";

/**
 * An account's developer plan: granted by an operator, or kept by the payment provider's events.
 * The plan counts while `status` is active or past_due and `active_until` is ahead; past due is the
 * provider's grace while it retries a payment.
 */
export const accountPlans = pgTable(
  "account_plans",
  {
    accountId: uuid("account_id")
      .primaryKey()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    status: text("status").notNull(),
    activeUntil: timestamp("active_until", { withTimezone: true }).notNull(),
    /** "operator" or the payment provider's name. */
    source: text("source").notNull(),
    /** The provider's customer and subscription ids, to match its later events. */
    providerCustomerId: text("provider_customer_id"),
    providerSubscriptionId: text("provider_subscription_id").unique(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("account_plans_status_check", sql`${t.status} in ('active', 'past_due', 'canceled')`)],
);

/** Payment provider events already applied, by the provider's event id: a redelivered event changes nothing. */
export const billingEvents = pgTable("billing_events", {
  id: text("id").primaryKey(),
  provider: text("provider").notNull(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

export type AccountPlan = typeof accountPlans.$inferSelect;
