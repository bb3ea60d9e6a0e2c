import { z } from "zod";
import { ZBusinessRef } from "../entities/entities.types";

export const ZVisibilityOutput = z.object({
  business: ZBusinessRef,
  visibilityScore: z.number().describe("Internal visibility score 0-100; shown only to the business itself"),
  geoScore: z.number().describe("Internal GEO score 0-100; shown only to the business itself"),
  citationRate: z.object({ checks: z.number().int(), mentioned: z.number().int(), rate: z.number().min(0).max(1) }),
  periodDays: z.number().int(),
});

export type TVisibilityOutput = z.infer<typeof ZVisibilityOutput>;
