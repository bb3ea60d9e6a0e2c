import { eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { businesses, categories, cities, staleCountAt, type Business } from "@directory/db";
import type { BusinessRecord } from "../entities/business-lookup";
import { publicUrls } from "../shared/public-urls";
import { openingState } from "../where-when/opening-hours-time";
import { roundDistanceKm } from "../where-when/near-geometry";
import { compactOpeningHours } from "../where-when/week-hours";
import { COMPLETENESS_LABEL, RANKING_MODEL } from "./disclosures";

/** The profile fields the score reads; a listing query selects these and no more. */
export type CompletenessSource = Pick<
  Business,
  "name" | "address" | "phone" | "website" | "email" | "description" | "services" | "usp" | "tagline" | "keywords" | "openingHours" | "lat" | "lng" | "rating"
>;

/** The fields that count; each is worth the same. The plan tier is deliberately absent. */
const COMPLETENESS_CHECKS: ReadonlyArray<(b: CompletenessSource) => boolean> = [
  (b) => Boolean(b.name),
  (b) => Boolean(b.address),
  (b) => Boolean(b.phone),
  (b) => Boolean(b.website),
  (b) => Boolean(b.email),
  (b) => Boolean(b.description),
  (b) => b.services.length > 0,
  (b) => Boolean(b.usp),
  (b) => Boolean(b.tagline),
  (b) => b.keywords.length > 0,
  (b) => b.openingHours.length > 0,
  (b) => b.lat !== null && b.lng !== null,
  (b) => b.rating !== null,
];

export function directoryCompletenessScore(business: CompletenessSource): number {
  const filled = COMPLETENESS_CHECKS.filter((check) => check(business)).length;
  return Math.round((filled / COMPLETENESS_CHECKS.length) * 100);
}

/** The public score fields every listing carries, in one place. */
export function publicScoreFields(business: CompletenessSource) {
  return {
    directoryCompletenessScore: directoryCompletenessScore(business),
    directoryCompletenessScoreLabel: COMPLETENESS_LABEL,
    rankingModel: RANKING_MODEL,
    recommended: false as const,
  };
}

/** Ratings are stored as REAL; one decimal is all the precision they have. */
export function roundedRating(business: { rating: number | null }): number | null {
  return business.rating === null ? null : Math.round(business.rating * 10) / 10;
}

/** What a listing is built from: the search queries select exactly these fields. */
export type ListingSource = CompletenessSource &
  Pick<
    BusinessRecord,
    | "id"
    | "slug"
    | "categoryName"
    | "cityName"
    | "timeZone"
    | "state"
    | "country"
    | "reviewCount"
    | "planTier"
    | "ownership"
    | "temporaryClosure"
    | "lastVerifiedAt"
    | "factsStaleAfter"
  >;

/** What a search adds to each listing: the instant it named (openNow and nextChange), the distance from its point. */
export interface ListingContext {
  /** openAt, or now for openNow; null: no time named. */
  at: Date | null;
  /** Great-circle km from the search's near point, per business id; null: no point named. */
  distances: ReadonlyMap<string, number> | null;
}

/**
 * The where-when fields of a listing: its hours in compact form whenever they are known; open or
 * not, and the next change, at the instant the search named (in the business's city's zone); its
 * distance from the search's point. Each only when it means something, so a plain search's listing
 * grows by its hours alone.
 */
function whereWhenFields(business: ListingSource, context: ListingContext | undefined) {
  const openingHours = compactOpeningHours(business.openingHours);
  const closure = business.temporaryClosure;
  const state = context?.at && business.timeZone ? openingState(business.openingHours, business.timeZone, context.at) : null;
  const distanceKm = context?.distances?.get(business.id);
  return {
    ...(openingHours === null ? {} : { openingHours }),
    ...(closure ? { operatingStatus: closure } : {}),
    // A time is named only with an open filter, which leaves a temporarily closed business out.
    ...(state?.hoursKnown ? { openNow: state.openNow, nextChange: state.nextChange } : {}),
    ...(distanceKm === undefined ? {} : { distanceKm: roundDistanceKm(distanceKm) }),
  };
}

/**
 * How fresh a listing's facts are, without reading its claims: the newest fact a person vouched
 * for, and how many of its current facts are past their useful life now (claim-freshness.ts).
 */
function freshnessFields(business: ListingSource) {
  return {
    lastVerifiedAt: business.lastVerifiedAt ? new Date(business.lastVerifiedAt).toISOString() : null,
    staleCount: staleCountAt(business.factsStaleAfter ?? [], new Date()),
  };
}

/**
 * The public listing (spec 2.1 under score contract 2.1-phase0). Built field by field so an
 * internal column (geoScore, visibilityScore) can never ride along by accident. Owner text is
 * cleaned and capped by the output schema (ZListing), not here.
 */
export function toListing(business: ListingSource, baseUrl: string, context?: ListingContext) {
  return {
    id: business.id,
    slug: business.slug,
    name: business.name,
    category: business.categoryName,
    city: business.cityName,
    state: business.state,
    country: business.country,
    address: business.address,
    phone: business.phone ?? "",
    website: business.website ?? "",
    description: business.description ?? "",
    services: business.services.join(", "),
    usp: business.usp ?? "",
    rating: roundedRating(business),
    reviewCount: business.reviewCount,
    planTier: business.planTier,
    verified: business.ownership === "owner_verified",
    ownership: business.ownership,
    profileUrl: publicUrls.profile(baseUrl, business.slug),
    ...freshnessFields(business),
    ...whereWhenFields(business, context),
    ...publicScoreFields(business),
  };
}

export type Listing = ReturnType<typeof toListing>;

/** The columns a listing is built from, named as ListingSource names them: no other column is read. */
const LISTING_COLUMNS: { [K in keyof ListingSource]: AnyColumn } = {
  id: businesses.id,
  slug: businesses.slug,
  name: businesses.name,
  categoryName: categories.name,
  cityName: cities.name,
  timeZone: cities.timeZone,
  state: businesses.state,
  country: businesses.country,
  address: businesses.address,
  phone: businesses.phone,
  website: businesses.website,
  email: businesses.email,
  description: businesses.description,
  services: businesses.services,
  usp: businesses.usp,
  tagline: businesses.tagline,
  keywords: businesses.keywords,
  openingHours: businesses.openingHours,
  lat: businesses.lat,
  lng: businesses.lng,
  rating: businesses.rating,
  reviewCount: businesses.reviewCount,
  planTier: businesses.planTier,
  ownership: businesses.ownership,
  temporaryClosure: businesses.temporaryClosure,
  lastVerifiedAt: businesses.lastVerifiedAt,
  factsStaleAfter: businesses.factsStaleAfter,
};

/**
 * `select <the listing's columns> from businesses join categories join cities`, for hot queries
 * read as the driver's raw rows (preparedQuery): the rows are ListingSource as they arrive.
 * `extra` adds columns of a joined query (e.g. a match count) after the listing's own.
 */
export function selectListings(extra?: SQL): SQL {
  const columns = Object.entries(LISTING_COLUMNS).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`);
  return sql`select ${sql.join(extra ? [...columns, extra] : columns, sql`, `)}
  from ${businesses}
  join ${categories} on ${eq(categories.slug, businesses.categorySlug)}
  join ${cities} on ${eq(cities.id, businesses.cityId)}`;
}

export const SELECT_LISTINGS: SQL = selectListings();
