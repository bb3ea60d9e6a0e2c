import { z } from "zod";
import { CLAIM_PROPERTIES } from "@directory/db/enums";
import { ZClaim } from "../entities/entity-profile.types";
import { adminRoute, ZAdminSlug } from "./admin-routes.types";

export const ZVerifyClaimInput = z.object({
  slug: ZAdminSlug,
  property: z.enum(CLAIM_PROPERTIES).describe("The property whose current value is verified, e.g. phone"),
});

export const ZVerifyClaimOutput = z.object({
  slug: z.string(),
  property: z.enum(CLAIM_PROPERTIES),
  verified: z.boolean().describe("true: a new admin-verified claim was written; false: the value was already admin-verified, nothing was written"),
  claim: ZClaim.describe("The current claim of the property after the call"),
  previous: ZClaim.nullable().describe("The claim the verification superseded (null when nothing was written)"),
});

export type TVerifyClaimInput = z.input<typeof ZVerifyClaimInput>;
export type TVerifyClaimOutput = z.infer<typeof ZVerifyClaimOutput>;

export const verifyClaimMeta = adminRoute(
  "POST",
  "/claims/verify",
  "verifyClaim",
  "Make the current value of a property admin-verified",
  "Writes a claim with the same value, source admin:verify, confidence 1, verification admin_verified, superseding the current one " +
    "(history mode shows who said it first). A value already admin-verified is left as it is.",
  {
    400: "Invalid body: slug missing or too long, or property not one of the claim properties",
    404: "No business has this slug, current or former",
    409: "The business has no current claim of this property: there is no value to verify",
  },
);
