import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { agencies } from "./agencies";
import { businesses } from "./businesses";

/**
 * The people who own a listing: who, since when, by which proof and who decided. A removed owner
 * keeps its row (removedAt), so the listing's history of owners stays. Written only by
 * services/claims/ownership.ts, in the transaction that turns the listing owner_verified.
 */
export const businessOwners = pgTable(
  "business_owners",
  {
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    /** "account:<id>" when the person proved it themselves, "operator" for a review or the admin CLI. */
    decidedBy: text("decided_by").notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp("removed_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.businessId, t.accountId] }),
    index("business_owners_account_idx").on(t.accountId),
    check("business_owners_method_check", sql`${t.method} in ('website', 'email', 'review', 'operator', 'invitation')`),
  ],
);

/**
 * A person's attempt to prove a listing is theirs. Website and email claims hold a hash of their
 * token or code (never the secret), its expiry and the tries used; review claims hold the evidence
 * an operator reads.
 */
export const ownershipClaims = pgTable(
  "ownership_claims",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    status: text("status").notNull().default("pending"),
    /** SHA-256 of the website token or of the email code; null for a review. */
    secretHash: text("secret_hash"),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** The agency the person claims for: on success it is granted access to the listing. */
    agencyId: uuid("agency_id").references(() => agencies.id, { onDelete: "set null" }),
    /** What the person says to an operator (a review): cleaned and capped. */
    evidence: text("evidence"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: text("decided_by"),
  },
  (t) => [
    index("ownership_claims_business_idx").on(t.businessId),
    index("ownership_claims_account_idx").on(t.accountId),
    index("ownership_claims_status_idx").on(t.status, t.createdAt),
    check("ownership_claims_method_check", sql`${t.method} in ('website', 'email', 'review')`),
    check("ownership_claims_status_check", sql`${t.status} in ('pending', 'verified', 'approved', 'rejected', 'expired')`),
  ],
);

export type BusinessOwner = typeof businessOwners.$inferSelect;
export type OwnershipClaim = typeof ownershipClaims.$inferSelect;
