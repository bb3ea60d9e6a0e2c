import { z } from "zod";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";
import { adminRoute, ZAdminSlug } from "./admin-routes.types";

export const ZVerifyOwnerInput = z.object({ slug: ZAdminSlug });

export const ZVerifyOwnerOutput = z.object({
  id: z.string(),
  slug: z.string(),
  name: ZOwnerText,
  ownership: z.literal("owner_verified"),
  changed: z.boolean().describe("false when the owner was already verified (nothing was written)"),
});

export type TVerifyOwnerInput = z.input<typeof ZVerifyOwnerInput>;
export type TVerifyOwnerOutput = z.infer<typeof ZVerifyOwnerOutput>;

export const verifyOwnerMeta = adminRoute(
  "POST",
  "/businesses/verify-owner",
  "verifyOwner",
  "Mark a listing's owner as verified",
  "The listing turns owner_verified (and enters the partner feed); one entity.updated event with change ownership. " +
    "Owner edits stay self-reported claims either way. Calling it again changes nothing.",
  {
    400: "Invalid body: slug missing or longer than 200 characters",
    404: "No business has this slug, current or former",
  },
);
