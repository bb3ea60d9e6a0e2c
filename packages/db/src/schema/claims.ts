import { sql } from "drizzle-orm";
import { check, customType, index, pgTable, real, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { claimVerification } from "./enums";

/**
 * A claim's value as JSON. Both drivers hand jsonb over already parsed, and drizzle's own jsonb
 * type would parse a string value once more: the postal code "9490" came back as the number 9490,
 * the name "true" as a boolean. This type takes the driver's value as it is.
 */
const claimValue = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => "jsonb",
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => value,
});

/**
 * Every fact about a business, with its provenance. A newer claim on the same property supersedes
 * the older one (supersededAt/supersededBy set); superseded claims are kept for history mode.
 */
export const claims = pgTable(
  "claims",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    /** The listing field this claim sets: name, phone, website, address, services, ... */
    property: text("property").notNull(),
    value: claimValue("value").notNull(),
    /** Who said it, e.g. "owner:dashboard", "registry:demo-companies-registry". */
    source: text("source").notNull(),
    /** 0..1: how sure we are the value is true. */
    confidence: real("confidence").notNull(),
    verification: claimVerification("verification").notNull(),
    observedAt: timestamp("observed_at", { withTimezone: true }).notNull(),
    /** The record in the source this fact came from, e.g. "node/123" for OpenStreetMap; null when the source has no ids. */
    recordId: text("record_id"),
    /**
     * When the directory learned the fact (observedAt is when the source saw it, which can be
     * years earlier for a registry). Orders a property's claims in the write path's comparisons.
     */
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
    supersededBy: uuid("superseded_by").references((): AnyPgColumn => claims.id),
  },
  (t) => [
    check("claims_confidence_range", sql`${t.confidence} >= 0 and ${t.confidence} <= 1`),
    // At most one current claim per property, enforced by the database.
    uniqueIndex("claims_current_uq")
      .on(t.businessId, t.property)
      .where(sql`${t.supersededAt} is null`),
    index("claims_business_idx").on(t.businessId, t.observedAt),
    // Former names, for the mention extractor's dictionaries (packages/api/src/services/graph/dictionary.ts).
    index("claims_former_names_idx")
      .on(t.businessId)
      .where(sql`${t.property} = 'name' and ${t.supersededAt} is not null`),
  ],
);

export type Claim = typeof claims.$inferSelect;
