import type { Db } from "@directory/db";
import { DomainError } from "../../errors";
import { findBusinessById, requireServable, requireServableBySlug, type BusinessRecord } from "./business-lookup";
import { listClaims, toPublicClaim } from "../claims/claims";
import { attributionsFor } from "../registry/attribution";
import { SCORE_CONTRACT_VERSION } from "../search/disclosures";
import { publicScoreFields, roundedRating } from "../search/listing";
import { publicUrls } from "../shared/public-urls";
import { toJsonLd } from "./structured-data";

export interface EntityProfileParams {
  history: boolean;
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
  return buildEntityProfile(db, { business, history: params.history, baseUrl: params.baseUrl });
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
}

/** The grouped entity record (spec 2.5): identity, contact, aiSignals, services, structuredData, claims. */
async function buildEntityProfile(db: Db, params: { business: BusinessRecord; history: boolean; baseUrl: string }) {
  const { business, history, baseUrl } = params;
  const claimRows = await listClaims(db, { businessId: business.id, history });
  const claims = claimRows.map(toPublicClaim);
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
    claims,
    attributions: attributionsFor(claims),
    history,
    links: {
      profileUrl: publicUrls.profile(baseUrl, business.slug),
      agentProfileUrl: publicUrls.agentProfile(baseUrl, business.slug),
      canonicalUrl: publicUrls.canonicalEntity(baseUrl, business.id),
    },
  };
}

export type EntityProfile = Awaited<ReturnType<typeof buildEntityProfile>>;
