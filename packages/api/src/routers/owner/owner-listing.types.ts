import { z } from "zod";
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

/**
 * Which business a signed-in owner or agency member acts on (their dashboard sends it). A business
 * key decides its business itself: a key's call that names one is refused (403).
 */
export const ZManagedSlug = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .optional()
  .describe("Signed in (session) only: the slug of a business you manage. Leave it out with a business key: the key decides, and naming one is refused (403)");

/** The input of an owner procedure that takes nothing but the business a session names. */
export const ZManagedBusinessInput = z.object({ slug: ZManagedSlug }).optional();
