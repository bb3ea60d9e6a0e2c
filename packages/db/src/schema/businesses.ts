import { getTableColumns, sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, jsonb, pgTable, real, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { categories } from "./categories";
import { cities } from "./cities";
import { businessStatus, ownership, planTier, type InactiveReason } from "./enums";
import { weekRanges } from "./week-ranges";

/** A business closed for now, as its listing says it. */
export interface TemporaryClosure {
  status: "temporarily_closed";
  reopensOn?: string;
}

export interface OpeningHoursSpec {
  /** schema.org day names: Monday ... Sunday. */
  days: string[];
  /** "HH:MM", 24-hour local time. */
  opens: string;
  closes: string;
}

/**
 * One row per business. The descriptive columns (name, phone, website, ...) are the projection of
 * the current claims (see claims.ts); only services/claims.ts writes them, in the same transaction
 * as the claim, so the two never disagree.
 */
export const businesses = pgTable(
  "businesses",
  {
    /** Immutable: survives renames and slug changes; what /entity/{id} serves. */
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    categorySlug: text("category_slug")
      .notNull()
      .references(() => categories.slug),
    cityId: integer("city_id")
      .notNull()
      .references(() => cities.id),
    state: text("state").notNull(),
    country: text("country").notNull(),
    /** Null when no source gives one (an OpenStreetMap element without addr:* tags, nor a building around it that has them). */
    address: text("address"),
    postalCode: text("postal_code"),
    phone: text("phone"),
    website: text("website"),
    email: text("email"),
    description: text("description"),
    services: text("services").array().notNull().default([]),
    usp: text("usp"),
    tagline: text("tagline"),
    keywords: text("keywords").array().notNull().default([]),
    /** 0..5, aggregated review rating. */
    rating: real("rating"),
    reviewCount: integer("review_count").notNull().default(0),
    planTier: planTier("plan_tier").notNull().default("free"),
    /** Paid plan end; once past, the business is decommissioned (410) until renewed. Null = no expiry. */
    subscriptionExpiresAt: timestamp("subscription_expires_at", { withTimezone: true }),
    status: businessStatus("status").notNull().default("active"),
    /** Why an inactive business is out of service (InactiveReason); null while active. Its 410 body says it. */
    inactiveReason: text("inactive_reason").$type<InactiveReason>(),
    ownership: ownership("ownership").notNull().default("unclaimed"),
    lat: doublePrecision("lat"),
    lng: doublePrecision("lng"),
    openingHours: jsonb("opening_hours").$type<OpeningHoursSpec[]>().notNull().default([]),
    /**
     * The opening hours as local minutes of the week (week-ranges.ts), computed by the database
     * from opening_hours (opening_hours_week(), migration 0018) in the very statement that writes
     * them: the claim write path's projection, the seed, a backfill alike, so it never lags the
     * hours. Null when the hours are unknown. What open-now / open-at filters test
     * (services/where-when/open-filter.ts): one containment test per row, no JSON read.
     */
    openWeek: weekRanges("open_week").generatedAlwaysAs(sql`opening_hours_week(opening_hours)`),
    /**
     * A temporary closure the current operatingStatus claim reports ({ status: "temporarily_closed",
     * reopensOn? }), projected by the claim write path (projection.ts); null when open. Such a
     * business stays listed, marked, and open filters leave it out (open-filter.ts).
     */
    temporaryClosure: jsonb("temporary_closure").$type<TemporaryClosure>(),
    /** The newest observedAt of a current claim a person vouched for (claim-freshness.ts); null when none. */
    lastVerifiedAt: timestamp("last_verified_at", { withTimezone: true }),
    /**
     * When each current claim goes stale, epoch minutes ascending (claim-freshness.ts): a listing's
     * staleCount without reading its claims. Null only until migrate() backfills it.
     */
    factsStaleAfter: integer("facts_stale_after").array(),
    /** INTERNAL. Never in public output (score contract 2.1-phase0). */
    geoScore: integer("geo_score").notNull().default(0),
    /** INTERNAL. Breaks ties within a plan tier; never in public output. */
    visibilityScore: integer("visibility_score").notNull().default(0),
    /** True for records of the generated demo world. */
    isDemo: boolean("is_demo").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Serves category+city search in index order: no sort step, reads only `limit` rows.
    // Migration 0024 adds INCLUDE (subscription_expires_at), which drizzle's builder cannot say: a
    // match count is then an index-only scan; 0025 adds open_week and temporary_closure, for the
    // open-filtered count and page.
    index("businesses_search_idx")
      .on(t.categorySlug, t.cityId, t.planTier, t.visibilityScore.desc().nullsFirst(), t.name, t.id)
      .where(sql`${t.status} = 'active'`),
    // The same without a city: a category's national ranking (category leaders, a search with no
    // city) reads `limit` entries instead of sorting every business of the category (~34,000
    // dentists at 1M: 334 ms).
    // Migration 0024: INCLUDE (subscription_expires_at), as businesses_search_idx.
    index("businesses_category_rank_idx")
      .on(t.categorySlug, t.planTier, t.visibilityScore.desc().nullsFirst(), t.name, t.id)
      .where(sql`${t.status} = 'active'`),
    // sort=rating: best-rated first (no rating last), then most reviews, then name and id. A
    // rating-sorted category+city page, or a category's across every city, reads `limit` entries
    // in index order instead of sorting every match (services/search/rating-order.ts).
    // Migration 0025: businesses_search_idx and this INCLUDE (subscription_expires_at, open_week,
    // temporary_closure): an open-filtered search in a city counts and pages from the index alone.
    index("businesses_rating_idx")
      .on(t.categorySlug, t.cityId, t.rating.desc().nullsLast(), t.reviewCount.desc(), t.name, t.id)
      .where(sql`${t.status} = 'active'`),
    index("businesses_category_rating_idx")
      .on(t.categorySlug, t.rating.desc().nullsLast(), t.reviewCount.desc(), t.name, t.id)
      .where(sql`${t.status} = 'active'`),
    // Near a point: radius (earth_box @>) and nearest-first (<-> in index order) searches over
    // servable businesses (services/where-when/near.ts). cube + earthdistance, no PostGIS.
    // Migration 0024: INCLUDE (lat, lng, subscription_expires_at, category_slug, city_id), so a radius count is index-only;
    // 0027 adds id, plan_tier, visibility_score and name, so the nearest-first walk is index-only too.
    index("businesses_earth_idx")
      .using("gist", sql`ll_to_earth(${t.lat}, ${t.lng})`)
      .where(sql`${t.status} = 'active'`),
    index("businesses_name_trgm_idx").using("gin", sql`${t.name} gin_trgm_ops`),
    // Finds a city's businesses: mention dictionaries and category co-occurrence (packages/api/src/services/graph/).
    index("businesses_city_idx").on(t.cityId, t.categorySlug),
    // The few businesses not servable (inactive, or expired), which graph answers leave out.
    index("businesses_inactive_idx")
      .on(t.id)
      .where(sql`${t.status} <> 'active'`),
    index("businesses_expiry_idx")
      .on(t.subscriptionExpiresAt, t.id)
      .where(sql`${t.subscriptionExpiresAt} is not null`),
    // Serves the partner feed's keyset paging (verified, active, in updated order) at any depth.
    // Migration 0026: INCLUDE (subscription_expires_at), so its count and its pages are index-only.
    index("businesses_feed_idx")
      .on(t.updatedAt, t.id)
      .where(sql`${t.status} = 'active' and ${t.ownership} = 'owner_verified'`),
  ],
);

/** Every column a business row is read with (full text lives in business_search, see there). */
export const businessColumns = getTableColumns(businesses);

export type Business = typeof businesses.$inferSelect;
export type NewBusiness = typeof businesses.$inferInsert;
