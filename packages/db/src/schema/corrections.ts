import { sql } from "drizzle-orm";
import { check, customType, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import type { CorrectionStatus } from "./enums";

/** A proposed value as JSON, taken as the driver gives it (see claims.ts: drizzle's jsonb would parse a string value twice). */
const proposedValue = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => "jsonb",
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => value,
});

/**
 * A fact someone outside the business says is wrong, with the value they propose. It never changes
 * a fact by itself: an admin accepts it (a superseding admin-verified claim, claimId) or rejects it.
 * One row per caller and proposal; rows of the same proposal (proposalKey) are decided together,
 * and their number of distinct submitters is the proposal's weight.
 */
export const corrections = pgTable(
  "corrections",
  {
    /** Random UUID v4: knowing it is what lets a caller poll the status. */
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    /** A claim property (operatingStatus included). */
    property: text("property").notNull(),
    /** The cleaned value, as the claim would hold it. */
    value: proposedValue("value").notNull(),
    /** business id, property and the value's canonical JSON, hashed: the same proposal from anyone. */
    proposalKey: text("proposal_key").notNull(),
    /** Cleaned and capped text or URL; never fetched by the server. */
    evidence: text("evidence").notNull(),
    /** When the caller saw the fact as they propose it; null when not said. */
    observedAt: timestamp("observed_at", { withTimezone: true }),
    /**
     * Who submitted it while it is pending: a keyed pseudonym of "key:<api key id>" or
     * "ip:<address bucket>" (correctionSubmitterOf); "decided:<id>" once decided. Never in public output.
     */
    submitter: text("submitter").notNull(),
    status: text("status").$type<CorrectionStatus>().notNull().default("pending"),
    /** The claim an accepted correction became. */
    claimId: uuid("claim_id"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("corrections_status_check", sql`${t.status} in ('pending', 'accepted', 'rejected', 'superseded')`),
    index("corrections_proposal_idx").on(t.proposalKey, t.status),
    index("corrections_business_idx").on(t.businessId, t.createdAt),
    index("corrections_pending_idx")
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export type Correction = typeof corrections.$inferSelect;
