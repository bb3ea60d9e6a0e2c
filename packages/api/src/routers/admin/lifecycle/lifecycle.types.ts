import { z } from "zod";
import { ZOwnerText } from "../../../services/shared/owner-text-schemas";

/** Shared pieces of the admin lifecycle procedures. */
export const ZLifecycleSlug = z.string().trim().min(1).max(200).describe("Current or former slug of the business");

export const ZLifecycleSummary = z.object({
  id: z.string(),
  slug: z.string(),
  name: ZOwnerText,
  status: z.enum(["active", "inactive"]),
  subscriptionExpiresAt: z.string().nullable(),
  decommissioned: z.boolean(),
  updatedAt: z.string(),
});

export type TLifecycleSummary = z.infer<typeof ZLifecycleSummary>;
