import { z } from "zod";
import { ZLifecycleSlug, type ZLifecycleSummary } from "./lifecycle.types";

export const ZRenameInput = z.object({ slug: ZLifecycleSlug, name: z.string().trim().min(1).max(200) });

export type TRenameInput = z.input<typeof ZRenameInput>;
export type TRenameOutput = z.infer<typeof ZLifecycleSummary>;
