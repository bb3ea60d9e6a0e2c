/*
 * The value lists of the database enums, with no drizzle in reach: output schemas and doors (the
 * stdio MCP bundle among them) read these through `@directory/db/enums`, and schema/enums.ts
 * builds the PostgreSQL enums from the same lists.
 */

/**
 * Declared best-first on purpose: PostgreSQL sorts enum values by declaration order, so
 * `ORDER BY plan_tier` puts premium, pro, basic, free in that order and an index can serve it.
 */
export const PLAN_TIERS = ["premium", "pro", "basic", "free"] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

/** inactive = decommissioned by an admin. Subscription expiry is a separate column. */
export const BUSINESS_STATUSES = ["active", "inactive"] as const;

/** owner_verified: an owner proved control. unclaimed: sourced from a registry, nobody claimed it. */
export const OWNERSHIPS = ["owner_verified", "unclaimed"] as const;

/** How a person became a listing's owner (business_owners.method): a proof, an operator, or an invitation from an owner (a co-owner). */
export const OWNERSHIP_METHODS = ["website", "email", "review", "operator", "invitation"] as const;
export type OwnershipMethod = (typeof OWNERSHIP_METHODS)[number];

/** The states of a claim of ownership: proving (pending), proven (verified), an operator's decision (approved, rejected), or lapsed (expired). */
export const OWNERSHIP_CLAIM_STATUSES = ["pending", "verified", "approved", "rejected", "expired"] as const;
export type OwnershipClaimStatus = (typeof OWNERSHIP_CLAIM_STATUSES)[number];

/** An agency's people: an owner manages its members, plan and developer keys; a member manages its businesses. */
export const AGENCY_ROLES = ["owner", "member"] as const;
export type AgencyRole = (typeof AGENCY_ROLES)[number];

export const CLAIM_VERIFICATIONS = ["self_reported", "admin_verified", "registry"] as const;
export type ClaimVerification = (typeof CLAIM_VERIFICATIONS)[number];

export const API_KEY_KINDS = ["developer", "partner", "business", "admin"] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/**
 * new -> contacted -> (won | lost); new -> rejected (spam, out of scope). Only the owning
 * business moves a lead, through its business key or its dashboard.
 */
export const LEAD_STATUSES = ["new", "contacted", "won", "lost", "rejected"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const WEBHOOK_EVENT_TYPES = ["entity.updated", "lead.created", "correction.created"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_STATUSES = ["active", "disabled"] as const;

/** pending: more attempts to come; succeeded: a 2xx arrived; failed: all attempts used, kept for a manual resend. */
export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

/**
 * Every fact of a listing that is a claim, in the camelCase the API uses as the claim's property.
 * The listing columns are the projection of the current claims of these properties; category and
 * city hold slugs, coordinates `{ lat, lng }`, openingHoursText the hours as the source wrote them.
 */
export const CLAIM_PROPERTIES = [
  "name",
  "category",
  "city",
  "address",
  "postalCode",
  "coordinates",
  "phone",
  "website",
  "email",
  "description",
  "services",
  "usp",
  "tagline",
  "keywords",
  "openingHours",
  "openingHoursText",
  "rating",
  "reviewCount",
  "operatingStatus",
] as const;
export type ClaimProperty = (typeof CLAIM_PROPERTIES)[number];

/** What an owner may change with a business key (PATCH /api/v2/owner/listing). */
export const OWNER_EDITABLE_PROPERTIES = [
  "phone",
  "website",
  "email",
  "address",
  "description",
  "services",
  "usp",
  "tagline",
  "keywords",
  "openingHours",
] as const satisfies readonly ClaimProperty[];
export type OwnerEditableProperty = (typeof OWNER_EDITABLE_PROPERTIES)[number];

/**
 * A business's operating status (the operatingStatus claim). permanently_closed takes it out of
 * every list (status inactive, reason closed) while its profile still answers 200 with the status.
 */
export const OPERATING_STATUSES = ["open", "temporarily_closed", "permanently_closed"] as const;
export type OperatingStatus = (typeof OPERATING_STATUSES)[number];

/**
 * What a profile reads as the business's operating status: one a claim states, or unverified when
 * none does and every current fact is past its useful life (standingOf, services/claims/freshness.ts).
 * unverified is never a claim's value: it is what the directory says when nothing current supports open.
 */
export const OPERATING_STANDINGS = [...OPERATING_STATUSES, "unverified"] as const;
export type OperatingStanding = (typeof OPERATING_STANDINGS)[number];

/**
 * pending: waiting for an admin; accepted: it became an admin-verified claim; rejected: an admin
 * said no; superseded: another proposal for the same property was accepted first.
 */
export const CORRECTION_STATUSES = ["pending", "accepted", "rejected", "superseded"] as const;
export type CorrectionStatus = (typeof CORRECTION_STATUSES)[number];

/** What a correction may propose: the facts a caller outside the business can check. */
export const CORRECTABLE_PROPERTIES = [
  "name",
  "phone",
  "website",
  "email",
  "address",
  "postalCode",
  "description",
  "services",
  "openingHours",
  "operatingStatus",
] as const satisfies readonly ClaimProperty[];
export type CorrectableProperty = (typeof CORRECTABLE_PROPERTIES)[number];

/** Why a business is out of service; its 410 body carries the reason. */
export const INACTIVE_REASONS = ["decommissioned", "removed_from_source", "closed"] as const;
export type InactiveReason = (typeof INACTIVE_REASONS)[number];
