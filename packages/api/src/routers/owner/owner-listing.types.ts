import { CLAIM_VALUE_SCHEMAS } from "../../services/claims/claim-values";

/**
 * The properties an owner may state about their listing (OWNER_EDITABLE_PROPERTIES), each with the
 * value schema every writer passes (claim-values.ts), so a door refuses a bad value with the same
 * words as the write path. Shared by the owner's edit and the admin's business add.
 */
export const OWNER_EDITABLE_SHAPE = {
  phone: CLAIM_VALUE_SCHEMAS.phone.optional().describe("International form: + and the country code, 7 to 15 digits; null removes it"),
  website: CLAIM_VALUE_SCHEMAS.website.optional().describe("An http:// or https:// URL; null removes it"),
  email: CLAIM_VALUE_SCHEMAS.email.optional().describe("An email address; null removes it"),
  address: CLAIM_VALUE_SCHEMAS.address.optional().describe("Street address; null removes it"),
  description: CLAIM_VALUE_SCHEMAS.description.optional().describe("What the business does, in a few sentences; null removes it"),
  services: CLAIM_VALUE_SCHEMAS.services.optional().describe("Services offered; the list replaces the current one"),
  usp: CLAIM_VALUE_SCHEMAS.usp.optional().describe("Unique selling proposition; null removes it"),
  tagline: CLAIM_VALUE_SCHEMAS.tagline.optional().describe("A one-line tagline; null removes it"),
  keywords: CLAIM_VALUE_SCHEMAS.keywords.optional().describe("Search keywords; the list replaces the current one"),
  openingHours: CLAIM_VALUE_SCHEMAS.openingHours
    .optional()
    .describe('Opening hours: [{ days: ["Monday", ...], opens: "09:00", closes: "18:00" }]; closes before opens runs past midnight'),
};

/** Body keys that name a business: an owner's key decides the business, so naming one is refused (403), never obeyed. */
export const BUSINESS_NAMING_KEYS = ["slug", "id", "businessId", "businessSlug"] as const;
