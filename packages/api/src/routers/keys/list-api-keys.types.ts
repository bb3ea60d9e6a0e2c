import { z } from "zod";
import { ZApiKeySummary } from "./api-key.types";

export const ZListApiKeysInput = z.object({
  limit: z.number().int().min(1).max(500).default(100),
  includeRevoked: z.boolean().default(false),
});

export const ZListApiKeysOutput = z.array(ZApiKeySummary);

export type TListApiKeysInput = z.input<typeof ZListApiKeysInput>;
export type TListApiKeysOutput = z.infer<typeof ZListApiKeysOutput>;
