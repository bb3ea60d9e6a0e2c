import { z } from "zod";
import { CLAIM_VALUE_SCHEMAS } from "../../services/claims/claim-values";
import { ZClaim } from "../entities/entity-profile.types";
import { OWNER_EDITABLE_SHAPE } from "../owner/owner-listing.types";
import { adminRoute } from "./admin-routes.types";

export const ZAddBusinessInput = z
  .object({
    name: CLAIM_VALUE_SCHEMAS.name.describe("The business's name"),
    category: CLAIM_VALUE_SCHEMAS.category.describe("A category slug, e.g. dentist"),
    city: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .describe("A city as search reads it: name, alias or slug, optionally with its country code, e.g. Mumbai, Cap-d'Ail, FR or mumbai-in"),
    ...OWNER_EDITABLE_SHAPE,
  })
  .strict();

export const ZAddBusinessOutput = z.object({
  id: z.string().describe("The business's immutable id"),
  slug: z.string(),
  ownership: z.literal("unclaimed"),
  claims: z.array(ZClaim).describe("Its claims: admin-verified, source admin:add"),
});

export type TAddBusinessInput = z.input<typeof ZAddBusinessInput>;
export type TAddBusinessOutput = z.infer<typeof ZAddBusinessOutput>;

export const addBusinessMeta = {
  ...adminRoute(
    "POST",
    "/businesses",
    "addBusiness",
    "Add a business",
    "Creates a business from name, category, city and any owner-editable property, with the same validation as every write; " +
      "each fact is an admin-verified claim (source admin:add). The listing is unclaimed until an admin verifies its owner.",
    {
      400: "Invalid body: a missing or unknown property, a value that fails its rule, an unknown category slug, or a city that does not resolve (the message names the closest cities, or the country a city is in when its code disagrees)",
    },
  ),
  successStatus: 201,
};
