import { z } from "zod";
import { ZBusinessSlug } from "./list-listing-owners.types";

export const ZRemoveOwnerInput = z.object({
  slug: ZBusinessSlug,
  email: z.string().trim().min(1).max(254).describe("The owner's email address"),
});

export const ZRemoveOwnerOutput = z.object({
  slug: z.string(),
  email: z.string(),
  remainingOwners: z.number().int(),
  ownership: z.string().describe("The listing's ownership after the removal: unclaimed once its last owner is gone"),
});

export type TRemoveOwnerInput = z.input<typeof ZRemoveOwnerInput>;
export type TRemoveOwnerOutput = z.infer<typeof ZRemoveOwnerOutput>;
