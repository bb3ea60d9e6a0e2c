import { z } from "zod";
import { CLAIM_VALUE_SCHEMAS } from "../../services/claims/claim-values";
import { ZClaim } from "../entities/entity-profile.types";
import { OWNER_EDITABLE_SHAPE } from "../owner/owner-listing.types";
import { adminRoute } from "./admin-routes.types";

export const ZAddBusinessInput = z
  .object({
    name: CLAIM_VALUE_SCHEMAS.name.describe("The business's name"),
    category: CLAIM_VALUE_SCHEMAS.category.describe("A category slug, e.g. dentist"),
    city: CLAIM_VALUE_SCHEMAS.city.describe("A city slug, e.g. mumbai-in"),
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
      400: "Invalid body: a missing or unknown property, a value that fails its rule, or an unknown category or city slug (the message names it)",
    },
  ),
  successStatus: 201,
};
