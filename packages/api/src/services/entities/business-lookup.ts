import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import { businessColumns, businesses, categories, cities, slugHistory, type Business, type Db, type InactiveReason } from "@directory/db";
import { DomainError } from "../../errors";
import { isUuid } from "../shared/ids";
import { servableCondition } from "./servable";
import { statementsPerDatabase } from "../shared/statements-per-database";

/** A business with the category and city facts every public shape needs. */
export interface BusinessRecord extends Business {
  categoryName: string;
  categorySingular: string;
  schemaOrgType: string;
  cityName: string;
  citySlug: string;
  /** The city's IANA zone, in which the business's hours are kept (null until migrate() fills it). */
  timeZone: string | null;
}

const recordColumns = {
  ...businessColumns,
  categoryName: categories.name,
  categorySingular: categories.singular,
  schemaOrgType: categories.schemaOrgType,
  cityName: cities.name,
  citySlug: cities.slug,
  timeZone: cities.timeZone,
};

/** Businesses joined with their category and city, as flat BusinessRecord rows, with any `extra` columns beside. */
export function selectBusinessRecords<Extra extends SelectedFields = Record<never, never>>(db: Db, extra?: Extra) {
  return db
    .select({ ...recordColumns, ...(extra as Extra) })
    .from(businesses)
    .innerJoin(categories, eq(categories.slug, businesses.categorySlug))
    .innerJoin(cities, eq(cities.id, businesses.cityId));
}

/**
 * recordsInOrder's statement, built and prepared once per database: the searches that pick ids
 * first read them on every request, and building this select of forty columns and two joins was
 * the biggest part of their query building. `= any(ids)` takes every list length in one statement.
 */
function buildRecordsByIds(db: Db) {
  return selectBusinessRecords(db)
    .where(sql`${businesses.id} = any(${sql.placeholder("ids")}::uuid[])`)
    .prepare("records_by_ids");
}

const recordsByIdsStatement = statementsPerDatabase<ReturnType<typeof buildRecordsByIds>>();

/** The listings of these ids, in the ids' order (businesses are never deleted, so each id is found). */
export async function recordsInOrder(db: Db, ids: readonly string[]): Promise<BusinessRecord[]> {
  if (ids.length === 0) return [];
  const rows = await recordsByIdsStatement(db, "records_by_ids", () => buildRecordsByIds(db)).execute({ ids: [...ids] });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** By current slug, else by a retired one (old slugs keep resolving). Slugs are lower-case. */
export async function findBusinessBySlugOrHistory(db: Db, slug: string): Promise<BusinessRecord | null> {
  const normalized = slug.trim().toLowerCase();
  const [current] = await selectBusinessRecords(db).where(eq(businesses.slug, normalized)).limit(1);
  if (current) return current;
  const [retired] = await selectBusinessRecords(db)
    .innerJoin(slugHistory, eq(slugHistory.businessId, businesses.id))
    .where(eq(slugHistory.slug, normalized))
    .limit(1);
  return retired ?? null;
}

export async function findBusinessById(db: Db, id: string): Promise<BusinessRecord | null> {
  // Checked here so a malformed id is a plain "not found", not a database cast error.
  if (!isUuid(id)) return null;
  const [row] = await selectBusinessRecords(db).where(eq(businesses.id, id.toLowerCase())).limit(1);
  return row ?? null;
}

/** 404 when no business has this slug, current or former; decommissioned ones are returned too. */
export async function requireBusinessBySlug(db: Db, slug: string): Promise<BusinessRecord> {
  const business = await findBusinessBySlugOrHistory(db, slug);
  if (!business) throw new DomainError("NOT_FOUND", `No business with slug "${slug}"`);
  return business;
}

/** How many slugs an unknown slug's 404 names. */
const CLOSEST_SLUGS = 3;

/**
 * The servable businesses whose names are closest to an unknown slug's words (businesses_name_trgm_idx):
 * a slug is its business's name and city, so a misremembered one is usually a name close to them.
 */
async function closestSlugs(db: Db, slug: string): Promise<string[]> {
  const words = slug.replace(/[-_]+/g, " ").trim().slice(0, 200);
  if (words.length < 3) return [];
  const rows = await db
    .select({ slug: businesses.slug })
    .from(businesses)
    .where(and(sql`${businesses.name} % ${words}`, servableCondition()))
    .orderBy(desc(sql`similarity(${businesses.name}, ${words})`), asc(businesses.slug))
    .limit(CLOSEST_SLUGS);
  return rows.map((row) => row.slug);
}

/** The business behind a slug as the public may see it: 404 unknown (naming the closest slugs by name), 410 decommissioned. */
export async function requireServableBySlug(db: Db, slug: string): Promise<BusinessRecord> {
  const business = await findBusinessBySlugOrHistory(db, slug);
  if (business) return requireServable(business, `slug "${slug}"`);
  const closest = await closestSlugs(db, slug);
  const named = closest.length > 0 ? ` Closest by name: ${closest.map((value) => `"${value}"`).join(", ")}.` : "";
  throw new DomainError("NOT_FOUND", `No business found for slug "${slug}".${named} ${FIND_SLUGS}`, { suggestions: closest });
}

/** Where slugs come from, for an unknown slug's 404. */
const FIND_SLUGS = "Slugs come from search results: search_by_keyword or search_businesses (GET /api/v2/keyword-search, /api/v2/businesses).";

/**
 * Decommissioned = inactive, or a subscription that has run out (SQL twin: servableCondition). A
 * permanently closed business (inactive, reason closed) is not: it left every list through the
 * servable condition, but it existed, so its single reads answer 200 with its operating status.
 */
export function isDecommissioned(business: Business, now: Date = new Date()): boolean {
  if (business.status !== "active" && business.inactiveReason !== "closed") return true;
  return business.subscriptionExpiresAt !== null && business.subscriptionExpiresAt <= now;
}

/** Why a business is not served: an admin's decommission, its source dropping it, or an expired subscription. */
export type OutOfServiceReason = Exclude<InactiveReason, "closed"> | "subscription_expired";

const OUT_OF_SERVICE_MESSAGES: Record<OutOfServiceReason, string> = {
  decommissioned: "has been decommissioned",
  removed_from_source: "was removed from the registry it was imported from",
  subscription_expired: "is out of service: its subscription expired",
};

export function outOfServiceReason(business: Business, now: Date = new Date()): OutOfServiceReason | null {
  if (business.status !== "active" && business.inactiveReason !== "closed") return business.inactiveReason ?? "decommissioned";
  return isDecommissioned(business, now) ? "subscription_expired" : null;
}

/** The one gate for every single-business read: 404 unknown, 410 out of service (the body's `reason` says why). */
export function requireServable(business: BusinessRecord | null, reference: string): BusinessRecord {
  if (!business) throw new DomainError("NOT_FOUND", `No business found for ${reference}`);
  const reason = outOfServiceReason(business);
  if (reason) throw new DomainError("ENTITY_DECOMMISSIONED", `The business ${reference} ${OUT_OF_SERVICE_MESSAGES[reason]}`, { reason });
  return business;
}
