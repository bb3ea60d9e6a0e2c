import type { BusinessRecord } from "../entities/business-lookup";
import { publicScoreFields, type CompletenessSource } from "./completeness";
import { publicUrls } from "../shared/public-urls";

/** Ratings are stored as REAL; one decimal is all the precision they have. */
export function roundedRating(business: { rating: number | null }): number | null {
  return business.rating === null ? null : Math.round(business.rating * 10) / 10;
}

/** What a listing is built from: the search queries select exactly these fields. */
export type ListingSource = CompletenessSource &
  Pick<BusinessRecord, "id" | "slug" | "categoryName" | "cityName" | "state" | "country" | "planTier" | "ownership">;

/**
 * The public listing (spec 2.1 under score contract 2.1-phase0). Built field by field so an
 * internal column (geoScore, visibilityScore) can never ride along by accident. Owner text is
 * cleaned and capped by the output schema (ZListing), not here.
 */
export function toListing(business: ListingSource, baseUrl: string) {
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
    planTier: business.planTier,
    verified: business.ownership === "owner_verified",
    ownership: business.ownership,
    profileUrl: publicUrls.profile(baseUrl, business.slug),
    ...publicScoreFields(business),
  };
}

export type Listing = ReturnType<typeof toListing>;
