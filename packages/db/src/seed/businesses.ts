import type { PlanTier } from "../schema/enums";
import type { Allocation } from "./allocation";
import { ownerQuestions } from "./buyer-questions";
import { categoryProfile } from "./category-profiles";
import { buildListingClaims, buildRowClaims, type BuiltClaims, type ListingProperty, type RowProperty } from "./claims";
import { phoneNumber, postalCode, streetAddress } from "./contact";
import { listingCopy } from "./copy";
import { localeFor } from "./locales";
import { businessName } from "./names";
import { buildOffers } from "./offers";
import { openingHoursFor } from "./opening-hours";
import { createRng, isOneInPeriod, type Rng } from "./random";
import { listingFreshness } from "../claim-freshness";
import type { BusinessRow, BuyerQuestionRow, OfferRow, SlugHistoryRow } from "./rows";
import type { SlugRegistry } from "./slugs";
import { kebab } from "./text";
import { DAY_SECONDS, DEMO_EPOCH_MS, EXPIRED_WINDOW_START_MS, FAR_FUTURE_MS, addSeconds } from "./time";

/** Everything needed to generate business #i; the registry is the only state shared between them. */
export interface DemoWorld {
  seed: number;
  allocation: Allocation;
  slugs: SlugRegistry;
}

export interface GeneratedBusiness {
  business: BusinessRow;
  claims: BuiltClaims;
  offers: OfferRow[];
  questions: BuyerQuestionRow[];
  retiredSlug: SlugHistoryRow | null;
}

/** One in this many decommissionable businesses is inactive (~2%). */
const INACTIVE_PERIOD = 50;
/** One in this many has a lapsed paid plan: ~0.7% of all, ~2% of the ~35% on paid plans. */
const EXPIRED_PERIOD = 140;

/** ~5% premium, ~10% pro, ~20% basic, the rest free; `paid` excludes free in the same ratio. */
function planTier(rng: Rng, paid: boolean): PlanTier {
  const roll = paid ? rng.next() * 0.35 : rng.next();
  if (roll < 0.05) return "premium";
  if (roll < 0.15) return "pro";
  if (roll < 0.35) return "basic";
  return "free";
}

/** Null for free plans; paid plans run until some day in 2099, lapsed ones ended during 2025. */
function subscriptionEnd(rng: Rng, tier: PlanTier, lapsed: boolean): number | null {
  if (tier === "free") return null;
  if (lapsed) return addSeconds(EXPIRED_WINDOW_START_MS, rng.int(0, 364 * DAY_SECONDS));
  return addSeconds(FAR_FUTURE_MS, rng.int(0, 364) * DAY_SECONDS);
}

function isPicked(world: DemoWorld, trait: string, rank: number | null, period: number): boolean {
  return rank !== null && isOneInPeriod(world.seed, trait, rank, period);
}

/** Mostly 3.5-5 like real review sites, one decimal; ~5% have no rating yet. */
function reviews(rng: Rng): { rating: number | null; reviewCount: number } {
  if (rng.chance(0.05)) return { rating: null, reviewCount: 0 };
  const rating = Math.round((1 + 4 * (1 - rng.next() * rng.next())) * 10) / 10;
  return { rating, reviewCount: 1 + Math.floor(rng.next() ** 2 * 1500) };
}

/** An earlier name whose slug differs from the current one (the retired slug depends on it). */
function earlierName(rng: Rng, current: string, make: () => string): string {
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidate = make();
    if (kebab(candidate) !== kebab(current)) return candidate;
  }
  return current.startsWith("The ") ? current.slice(4) : `The ${current}`;
}

function differentPhone(rng: Rng, current: string, country: string): string {
  let phone = phoneNumber(rng, country);
  while (phone === current) phone = phoneNumber(rng, country);
  return phone;
}

function jitter(rng: Rng, centre: number): number {
  return Math.round((centre + (rng.next() - 0.5) * 0.1) * 1e6) / 1e6;
}

/** The row's facts in claim form: the claim of each equals the column it projects to. */
function rowClaimValues(business: BusinessRow, citySlug: string): Record<RowProperty, unknown> {
  return {
    category: business.categorySlug,
    city: citySlug,
    postalCode: business.postalCode,
    coordinates: { lat: business.lat, lng: business.lng },
    rating: business.rating,
    reviewCount: business.reviewCount,
  };
}

/** Row claims draw from their own stream: the business stream's draws, and so the world, stay as they were. */
const ROW_CLAIMS_STREAM = "business-row-claims";

export function generateBusiness(world: DemoWorld, index: number): GeneratedBusiness {
  const rng = createRng(world.seed, "business", index);
  const { city, category, decommissionRank } = world.allocation.placementFor(index, rng);
  const profile = categoryProfile(category.slug);
  const locale = localeFor(city.countryCode);
  const id = rng.uuid();
  const makeName = () => businessName(rng, category.slug, profile, locale, city.name);
  const name = makeName();
  const cityKebab = kebab(city.name);
  const slug = world.slugs.claim(`${kebab(name)}-${cityKebab}`, index);

  const lapsed = isPicked(world, "expired", decommissionRank, EXPIRED_PERIOD);
  const tier = planTier(rng, lapsed);
  const subscriptionExpiresAt = subscriptionEnd(rng, tier, lapsed);
  const status = isPicked(world, "inactive", decommissionRank, INACTIVE_PERIOD) ? "inactive" : "active";
  const ownership = rng.chance(0.4) ? "owner_verified" : "unclaimed";
  const services = rng.sample(profile.services, rng.int(3, 6));
  const copy = listingCopy(rng, name, category, profile, city, services);
  const openingHours = openingHoursFor(profile.hours, rng);
  const phone = phoneNumber(rng, city.countryCode);
  const createdAt = addSeconds(DEMO_EPOCH_MS, rng.int(0, 180 * DAY_SECONDS));
  // The reserved .example TLD guarantees no demo listing points at a real business.
  const website = `https://${slug}.example`;
  const email = `hello@${slug}.example`;
  const address = streetAddress(rng, locale, city.name);

  const current: Record<ListingProperty, unknown> = {
    name,
    phone,
    website,
    email,
    address,
    description: copy.description,
    services,
    usp: copy.usp,
    tagline: copy.tagline,
    keywords: copy.keywords,
    openingHours,
  };

  // ~25% have history: an older phone and/or website, and ~5% overall an older name.
  const previous: Partial<Record<ListingProperty, unknown>> = {};
  let retiredSlug: string | null = null;
  if (rng.chance(0.25)) {
    const which = rng.next();
    if (which < 0.7) previous.phone = differentPhone(rng, phone, city.countryCode);
    if (which >= 0.4) previous.website = `http://www.${slug}.example`;
    if (rng.chance(0.2)) {
      const oldName = earlierName(rng, name, makeName);
      previous.name = oldName;
      // ~40% of renamed businesses also changed their slug: ~2% of all have a retired slug.
      if (rng.chance(0.4)) retiredSlug = world.slugs.claim(`${kebab(oldName)}-${cityKebab}`, index);
    }
  }

  const listingClaims = buildListingClaims(rng, { businessId: id, ownership, createdAtMs: createdAt, current, previous });
  const business: BusinessRow = {
    id,
    slug,
    name,
    categorySlug: category.slug,
    cityId: city.id,
    state: city.adminRegion,
    country: city.countryCode,
    address,
    postalCode: postalCode(rng, city.countryCode),
    phone,
    website,
    email,
    description: copy.description,
    services,
    usp: copy.usp,
    tagline: copy.tagline,
    keywords: copy.keywords,
    ...reviews(rng),
    planTier: tier,
    subscriptionExpiresAt,
    status,
    inactiveReason: status === "inactive" ? "decommissioned" : null,
    temporaryClosure: null,
    // Projected from the claims below, once they are all built.
    lastVerifiedAt: null,
    factsStaleAfter: [],
    ownership,
    lat: jitter(rng, city.lat),
    lng: jitter(rng, city.lng),
    openingHours,
    geoScore: rng.int(0, 100),
    // Derived from the demo documents once they are written (seed/documents.ts).
    visibilityScore: 0,
    isDemo: true,
    createdAt,
    updatedAt: listingClaims.lastObservedMs,
  };
  const rowClaims = buildRowClaims(createRng(world.seed, ROW_CLAIMS_STREAM, index), {
    businessId: id,
    ownership,
    createdAtMs: createdAt,
    lastObservedMs: listingClaims.lastObservedMs,
    values: rowClaimValues(business, city.slug),
  });
  const claims: BuiltClaims = { ...listingClaims, current: [...listingClaims.current, ...rowClaims] };
  const freshness = listingFreshness(claims.current);
  business.lastVerifiedAt = freshness.lastVerifiedAt?.getTime() ?? null;
  business.factsStaleAfter = freshness.factsStaleAfter;

  const paidListing = tier === "pro" || tier === "premium";
  return {
    business,
    claims,
    offers: paidListing ? buildOffers(rng, business, profile, city.name) : [],
    questions: ownership === "owner_verified" && rng.chance(0.3) ? ownerQuestions(rng, business, city.name) : [],
    retiredSlug: retiredSlug ? { slug: retiredSlug, businessId: id, retiredAt: claims.observedMs.name } : null,
  };
}
