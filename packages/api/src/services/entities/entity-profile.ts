import type { Db } from "@directory/db";
import { DomainError } from "../../errors";
import { findBusinessById, requireServable, requireServableBySlug, type BusinessRecord } from "./business-lookup";
import { listClaims, toPublicClaim } from "../claims/claims";
import { publicScoreFields, SCORE_CONTRACT_VERSION } from "../search/listing";
import { roundedRating } from "../search/listing";
import { publicUrls } from "../shared/public-urls";
import { toJsonLd } from "./structured-data";

export interface EntityProfileParams {
  history: boolean;
  /** History mode is for key holders only; the caller says whether a valid key was presented. */
  hasApiKey: boolean;
}

export async function getEntityProfileBySlug(db: Db, baseUrl: string, slug: string, params: EntityProfileParams) {
  assertHistoryAllowed(params);
  const business = await requireServableBySlug(db, slug);
  return buildEntityProfile(db, baseUrl, business, params.history);
}

export async function getEntityProfileById(db: Db, baseUrl: string, id: string, params: EntityProfileParams) {
  assertHistoryAllowed(params);
  const business = requireServable(await findBusinessById(db, id), `id "${id}"`);
  return buildEntityProfile(db, baseUrl, business, params.history);
}

function assertHistoryAllowed(params: EntityProfileParams): void {
  if (params.history && !params.hasApiKey) {
    throw new DomainError("UNAUTHORIZED", "history=true needs an API key: send Authorization: Bearer <key>, or omit history");
  }
}

/** The grouped entity record (spec 2.5): identity, contact, aiSignals, services, structuredData, claims. */
async function buildEntityProfile(db: Db, baseUrl: string, business: BusinessRecord, history: boolean) {
  const claimRows = await listClaims(db, business.id, { history });
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
    structuredData: toJsonLd(business, baseUrl),
    claims: claimRows.map(toPublicClaim),
    history,
    links: {
      profileUrl: publicUrls.profile(baseUrl, business.slug),
      agentProfileUrl: publicUrls.agentProfile(baseUrl, business.slug),
      canonicalUrl: publicUrls.canonicalEntity(baseUrl, business.id),
    },
  };
}

export type EntityProfile = Awaited<ReturnType<typeof buildEntityProfile>>;
