import { z } from "zod";
import { OWNERSHIP_METHODS } from "@directory/db/enums";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";

export const ZAccountBusiness = z.object({
  slug: z.string(),
  name: ZOwnerText,
  city: z.string(),
  method: z.enum(OWNERSHIP_METHODS).describe("How the person proved the listing theirs"),
  ownerSince: z.string(),
});
export const ZListAccountBusinessesOutput = z.array(ZAccountBusiness);

export type TAccountBusiness = z.infer<typeof ZAccountBusiness>;
