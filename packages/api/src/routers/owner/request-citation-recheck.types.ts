import { z } from "zod";
import type { DirectoryMeta } from "../../procedures/meta";
import { ZBusinessRef } from "../entities/entities.types";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";
import { ZManagedBusinessInput } from "./owner-listing.types";

export const ZCitationRecheckInput = ZManagedBusinessInput;

export const ZCitationRecheckOutput = z.object({
  business: ZBusinessRef,
  requestedAt: z.string().describe("When the recheck was asked for (ISO 8601)"),
  nextRecheckAt: z.string().describe("When the business may ask again: the next UTC midnight"),
  checks: z
    .array(
      z.object({
        engine: z.string(),
        model: z.string(),
        query: ZOwnerText.describe("The question the engine is asked"),
        status: z
          .enum(["queued", "running", "done", "failed"])
          .describe("queued: the worker asks the engine shortly; done: answered (another business of the pair asked first today)"),
        checkedAt: z.string().nullable().describe("When the engine answered; null until then"),
      }),
    )
    .describe("One check of the business's category and city per configured engine; get_my_citations shows each once answered"),
});

export type TCitationRecheckOutput = z.infer<typeof ZCitationRecheckOutput>;

export const requestCitationRecheckMeta: DirectoryMeta = {
  successStatus: 202,
  openapi: {
    method: "POST",
    path: "/api/v2/owner/citations/recheck",
    operationId: "requestCitationRecheck",
    tags: ["owner"],
    summary: "The key's own business: queue a recheck of its category and city by every configured AI engine, once a day",
    description:
      "A business-scoped key, or a signed-in manager naming the business by slug. The worker asks the engines shortly; the answers appear in " +
      "GET /api/v2/owner/citations. Once per business per UTC day: a second is 429 with resetAt. No engine configured: 409.",
  },
};
