import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { leadStatus } from "./enums";

/** A request to be contacted, submitted by an agent on a consenting user's behalf. */
export const leads = pgTable(
  "leads",
  {
    /** Random UUID v4: unguessable, so knowing an id is the capability to read its status. */
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    status: leadStatus("status").notNull().default("new"),
    /** Personal data: never returned by get_lead_status. */
    contactName: text("contact_name").notNull(),
    contactEmail: text("contact_email"),
    contactPhone: text("contact_phone"),
    message: text("message").notNull(),
    /** Caller-chosen, per caller and business; a retried submission with the same key returns the same lead. */
    idempotencyKey: text("idempotency_key").notNull(),
    /** Who may replay the key: "key:<api key id>" or "ip:<address bucket>", so a key is no oracle for another caller's lead. */
    idempotencyScope: text("idempotency_scope").notNull(),
    /** Key plus a hash of the submitted content: a replay must match it to get the same lead back. */
    requestFingerprint: text("request_fingerprint").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("leads_idempotency_uq").on(t.businessId, t.idempotencyScope, t.idempotencyKey),
    index("leads_business_idx").on(t.businessId, t.createdAt),
  ],
);

/** The consent a lead was submitted under; written with the lead and never updated. */
export const leadConsents = pgTable("lead_consents", {
  leadId: uuid("lead_id")
    .primaryKey()
    .references(() => leads.id),
  /** The exact statement the user was shown and agreed to. */
  statement: text("statement").notNull(),
  /** Who attested it: the agent or client that called submit_lead. */
  attestedBy: text("attested_by").notNull(),
  consentedAt: timestamp("consented_at", { withTimezone: true }).notNull(),
  recordedAt: timestamp("recorded_at", { withTimezone: true })
    .notNull()
    .default(sql`now()`),
});
