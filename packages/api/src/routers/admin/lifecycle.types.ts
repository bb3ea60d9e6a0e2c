import { z } from "zod";
import { ZOwnerText } from "../owner-text.types";

const ZSlug = z.string().trim().min(1).max(200).describe("Current or former slug of the business");

export const ZLifecycleSummary = z.object({
  id: z.string(),
  slug: z.string(),
  name: ZOwnerText,
  status: z.enum(["active", "inactive"]),
  subscriptionExpiresAt: z.string().nullable(),
  decommissioned: z.boolean(),
  updatedAt: z.string(),
});

export const ZDecommissionInput = z.object({ slug: ZSlug });
export const ZReactivateInput = z.object({
  slug: ZSlug,
  subscriptionExpiresAt: z.iso.datetime({ offset: true }).optional().describe("Required when the subscription has expired"),
});
export const ZRenameInput = z.object({ slug: ZSlug, name: z.string().trim().min(1).max(200) });
export const ZChangeSlugInput = z.object({ slug: ZSlug, newSlug: z.string().trim().min(1).max(200) });
