import { z } from "zod";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";

export const ZSessionSummary = z.object({
  id: z.uuid(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  expiresAt: z.string(),
  userAgent: ZOwnerText.nullable().describe("As the browser sent it, cleaned and capped"),
  current: z.boolean().describe("The session this request was made with"),
});
export const ZListSessionsOutput = z.array(ZSessionSummary);

export const ZEndSessionInput = z.object({ id: z.uuid() });
export const ZEndSessionOutput = z.object({ ended: z.literal(true) });

export const ZSignOutOutput = z.object({ signedOut: z.literal(true) });
