import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { businesses } from "./businesses";

/**
 * An agency: people who manage other businesses' listings. Its plan and developer keys are held by
 * an account of its own (`accountId`, nobody signs in as it), so plans and keys work as they do for
 * a person (account_plans, api_keys.account_id).
 */
export const agencies = pgTable("agencies", {
  id: uuid("id").primaryKey().defaultRandom(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  accountId: uuid("account_id")
    .notNull()
    .unique()
    .references(() => accounts.id, { onDelete: "cascade" }),
  createdBy: uuid("created_by").references(() => accounts.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The agency's people: an owner manages members and keys, a member manages the businesses. A removed member keeps its row. */
export const agencyMembers = pgTable(
  "agency_members",
  {
    agencyId: uuid("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    addedBy: uuid("added_by").references(() => accounts.id, { onDelete: "set null" }),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp("removed_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.agencyId, t.accountId] }),
    index("agency_members_account_idx").on(t.accountId),
    check("agency_members_role_check", sql`${t.role} in ('owner', 'member')`),
  ],
);

/** A listing's owner lets an agency manage it; withdrawing keeps the row (withdrawnAt) as history. */
export const agencyBusinessAccess = pgTable(
  "agency_business_access",
  {
    agencyId: uuid("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    grantedBy: uuid("granted_by").references(() => accounts.id, { onDelete: "set null" }),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull().defaultNow(),
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.agencyId, t.businessId] }), index("agency_business_access_business_idx").on(t.businessId)],
);

export type Agency = typeof agencies.$inferSelect;
export type AgencyMember = typeof agencyMembers.$inferSelect;
