import { z } from "zod";
import { OWNERSHIP_METHODS } from "@directory/db";

export const ZBusinessSlug = z.string().trim().min(1).max(200).describe("The listing's slug (a former one resolves too)");

export const ZListOwnersInput = z.object({
  slug: ZBusinessSlug,
  all: z.boolean().default(false).describe("Removed owners too, with their removedAt"),
});

export const ZListOwnersOutput = z.object({
  slug: z.string(),
  name: z.string(),
  ownership: z.string().describe("The listing's ownership: owner_verified while it has an owner"),
  owners: z.array(
    z.object({
      email: z.string(),
      method: z.enum(OWNERSHIP_METHODS),
      decidedBy: z.string(),
      verifiedAt: z.string(),
      removedAt: z.string().nullable(),
    }),
  ),
});

export type TListOwnersInput = z.input<typeof ZListOwnersInput>;
export type TListOwnersOutput = z.infer<typeof ZListOwnersOutput>;
