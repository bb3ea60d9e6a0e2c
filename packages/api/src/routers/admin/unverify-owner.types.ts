import { z } from "zod";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";
import { adminRoute, ZAdminSlug } from "./admin-routes.types";

export const ZUnverifyOwnerInput = z.object({ slug: ZAdminSlug });

export const ZUnverifyOwnerOutput = z.object({
  id: z.string(),
  slug: z.string(),
  name: ZOwnerText,
  ownership: z.literal("unclaimed"),
  changed: z.boolean().describe("false when the owner was not verified (nothing was written)"),
});

export type TUnverifyOwnerInput = z.input<typeof ZUnverifyOwnerInput>;
export type TUnverifyOwnerOutput = z.infer<typeof ZUnverifyOwnerOutput>;

export const unverifyOwnerMeta = adminRoute(
  "POST",
  "/businesses/unverify-owner",
  "unverifyOwner",
  "Withdraw a listing's owner verification",
  "The inverse of verify-owner: the listing turns unclaimed and leaves the partner feed (a change-feed remove with reason no_longer_verified); " +
    "one entity.updated event with change ownership. Calling it again changes nothing.",
  {
    400: "Invalid body: slug missing or longer than 200 characters",
    404: "No business has this slug, current or former",
  },
);
