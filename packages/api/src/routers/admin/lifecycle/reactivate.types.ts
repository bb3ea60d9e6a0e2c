import { z } from "zod";
import { ZLifecycleSlug, type ZLifecycleSummary } from "./lifecycle.types";

export const ZReactivateInput = z.object({
  slug: ZLifecycleSlug,
  subscriptionExpiresAt: z.iso.datetime({ offset: true }).optional().describe("Required when the subscription has expired"),
});

export type TReactivateInput = z.input<typeof ZReactivateInput>;
export type TReactivateOutput = z.infer<typeof ZLifecycleSummary>;
