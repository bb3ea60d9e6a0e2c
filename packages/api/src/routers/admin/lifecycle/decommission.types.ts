import { z } from "zod";
import { ZLifecycleSlug, type ZLifecycleSummary } from "./lifecycle.types";

export const ZDecommissionInput = z.object({ slug: ZLifecycleSlug });

export type TDecommissionInput = z.input<typeof ZDecommissionInput>;
export type TDecommissionOutput = z.infer<typeof ZLifecycleSummary>;
