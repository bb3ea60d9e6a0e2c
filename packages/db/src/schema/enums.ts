import { pgEnum } from "drizzle-orm/pg-core";

/**
 * Declared best-first on purpose: PostgreSQL sorts enum values by declaration order, so
 * `ORDER BY plan_tier` puts premium, pro, basic, free in that order and an index can serve it.
 */
export const planTier = pgEnum("plan_tier", ["premium", "pro", "basic", "free"]);

/** inactive = decommissioned by an admin. Subscription expiry is a separate column. */
export const businessStatus = pgEnum("business_status", ["active", "inactive"]);

/** owner_verified: an owner proved control. unclaimed: sourced from a registry, nobody claimed it. */
export const ownership = pgEnum("ownership", ["owner_verified", "unclaimed"]);

export const claimVerification = pgEnum("claim_verification", ["self_reported", "admin_verified", "registry"]);

export const apiKeyKind = pgEnum("api_key_kind", ["developer", "partner", "business", "admin"]);

export const PLAN_TIERS = planTier.enumValues;
export type PlanTier = (typeof PLAN_TIERS)[number];
export const API_KEY_KINDS = apiKeyKind.enumValues;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];
export const CLAIM_VERIFICATIONS = claimVerification.enumValues;
export type ClaimVerification = (typeof CLAIM_VERIFICATIONS)[number];
