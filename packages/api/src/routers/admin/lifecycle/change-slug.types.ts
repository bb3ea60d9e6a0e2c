import { z } from "zod";
import { ZLifecycleSlug, type ZLifecycleSummary } from "./lifecycle.types";

export const ZChangeSlugInput = z.object({ slug: ZLifecycleSlug, newSlug: z.string().trim().min(1).max(200) });

export type TChangeSlugInput = z.input<typeof ZChangeSlugInput>;
export type TChangeSlugOutput = z.infer<typeof ZLifecycleSummary>;
