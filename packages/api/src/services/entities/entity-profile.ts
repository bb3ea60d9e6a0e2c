import { isVouched, type Claim, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { findBusinessById, requireServable, requireServableBySlug, type BusinessRecord } from "./business-lookup";
import { listClaims, toPublicClaim } from "../claims/claims";
import { staleAfterOf, standingOf } from "../claims/freshness";
import { businessAsOf, claimsAsOf } from "./as-of";
import { attributionsFor } from "../registry/attribution";
import { registryRecordIdOfBusiness } from "../registry/attribution-reads";
import { SCORE_CONTRACT_VERSION } from "../search/disclosures";
import { publicScoreFields, roundedRating } from "../search/listing";
import { publicUrls } from "../shared/public-urls";
import { hoursAsWritten } from "./opening-hours";
import { toJsonLd } from "./structured-data";

export interface EntityProfileParams {
  history: boolean;
  /** The facts as they stood at this moment (key required, like history). */
  asOf?: Date;
  /** History mode is for key holders only; the caller says whether a valid key was presented. */
  hasApiKey: boolean;
  baseUrl: string;
}

export interface EntityProfileBySlugParams extends EntityProfileParams {
  /** Current or former slug. */
  slug: string;
}

export interface EntityProfileByIdParams extends EntityProfileParams {
  /** The immutable id; a malformed one is not found. */
  id: string;
}

export async function getEntityProfileBySlug(db: Db, params: EntityProfileBySlugParams) {
  assertHistoryAllowed(params);
  const business = await requireServableBySlug(db, params.slug);
  return buildEntityProfile(db, { business, history: params.history, asOf: params.asOf, baseUrl: params.baseUrl });
}

export async function getEntityProfileById(db: Db, params: EntityProfileByIdParams) {
  assertHistoryAllowed(params);
  const business = requireServable(await findBusinessById(db, params.id), `id "${params.id}"`);
  return buildEntityProfile(db, { business, history: params.history, baseUrl: params.baseUrl });
}

function assertHistoryAllowed(params: EntityProfileParams): void {
  if (params.history && !params.hasApiKey) {
    throw new DomainError("UNAUTHORIZED", "history=true needs an API key: send Authorization: Bearer <key>, or omit history");
  }
  if (params.asOf && !params.hasApiKey) {
    throw new DomainError("UNAUTHORIZED", "asOf needs an API key: send Authorization: Bearer <key>, or omit asOf");
  }
  if (params.asOf && params.history) throw new DomainError("INVALID_INPUT", "Invalid parameter asOf: ask for asOf or history=true, not both");
  if (params.asOf && params.asOf.getTime() > Date.now()) throw new DomainError("INVALID_INPUT", "Invalid parameter asOf: it is in the future");
}

function staleAt(claim: Claim, at: Date): boolean {
  return staleAfterOf(claim.property, claim.observedAt) <= at;
}

/** lastVerifiedAt: the newest fact a person vouched for (admin-verified or the owner's); staleCount: current facts past their useful life. */
function freshnessOf(claims: readonly { verification: string; observedAt: string; stale: boolean; supersededAt: string | null }[]) {
  const current = claims.filter((claim) => claim.supersededAt === null);
  const vouched = current.filter((claim) => isVouched(claim.verification)).map((claim) => claim.observedAt);
  return { lastVerifiedAt: vouched.length > 0 ? vouched.reduce((a, b) => (a > b ? a : b)) : null, staleCount: current.filter((claim) => claim.stale).length };
}

/** The grouped entity record (spec 2.5): identity, contact, aiSignals, services, structuredData, claims. */
async function buildEntityProfile(db: Db, params: { business: BusinessRecord; history: boolean; asOf?: Date; baseUrl: string }) {
  const { history, asOf, baseUrl } = params;
  if (asOf && asOf < params.business.createdAt) {
    throw new DomainError("NOT_FOUND", `The business "${params.business.slug}" did not exist yet at ${asOf.toISOString()}`);
  }
  const [claimRows, registryRecordId] = await Promise.all([
    asOf ? claimsAsOf(db, params.business.id, asOf) : listClaims(db, { businessId: params.business.id, history }),
    registryRecordIdOfBusiness(db, params.business.id),
  ]);
  // As of a moment, the claims held then were current then: shown so, whatever superseded them since.
  const held = asOf ? claimRows.map((claim) => ({ ...claim, supersededAt: null, supersededBy: null })) : claimRows;
  const business = asOf ? businessAsOf(params.business, held) : params.business;
  // Stale as of that moment too: a fact that was fresh then shows so.
  const claims = held.map((claim) => (asOf ? { ...toPublicClaim(claim), stale: staleAt(claim, asOf) } : toPublicClaim(claim)));
  const currentClaims = held.filter((claim) => claim.supersededAt === null);
  return {
    apiVersion: SCORE_CONTRACT_VERSION,
    identity: {
      id: business.id,
      slug: business.slug,
      name: business.name,
      category: business.categoryName,
      categorySlug: business.categorySlug,
      city: business.cityName,
      state: business.state,
      country: business.country,
      ownership: business.ownership,
      verified: business.ownership === "owner_verified",
      planTier: business.planTier,
      createdAt: business.createdAt.toISOString(),
      updatedAt: business.updatedAt.toISOString(),
    },
    contact: {
      phone: business.phone,
      website: business.website,
      email: business.email,
      address: business.address,
      postalCode: business.postalCode,
      latitude: business.lat,
      longitude: business.lng,
      openingHours: business.openingHours,
      openingHoursText: hoursAsWritten(currentClaims, business.openingHours),
    },
    aiSignals: {
      description: business.description,
      tagline: business.tagline,
      usp: business.usp,
      keywords: business.keywords,
      rating: roundedRating(business),
      reviewCount: business.reviewCount,
      ...publicScoreFields(business),
    },
    services: business.services,
    structuredData: toJsonLd({ ...business, registryRecordId }, baseUrl),
    operatingStatus: standingOf(currentClaims, asOf ?? new Date()),
    freshness: freshnessOf(claims),
    claims,
    attributions: attributionsFor(claims),
    history,
    asOf: asOf?.toISOString() ?? null,
    links: {
      profileUrl: publicUrls.profile(baseUrl, business.slug),
      agentProfileUrl: publicUrls.agentProfile(baseUrl, business.slug),
      canonicalUrl: publicUrls.canonicalEntity(baseUrl, business.id),
    },
  };
}

export type EntityProfile = Awaited<ReturnType<typeof buildEntityProfile>>;
