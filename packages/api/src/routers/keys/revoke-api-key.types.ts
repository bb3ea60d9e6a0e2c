import { z } from "zod";
import { type ZApiKeySummary } from "./api-key.types";

export const ZRevokeApiKeyInput = z.object({ id: z.uuid() });

export type TRevokeApiKeyInput = z.input<typeof ZRevokeApiKeyInput>;
export type TRevokeApiKeyOutput = z.infer<typeof ZApiKeySummary>;
