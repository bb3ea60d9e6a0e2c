import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZBusinessRef } from "../entities/entities.types";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";
import { ZCitationEngines, ZCitationMethod } from "./get-my-citations.types";

const ZEngineCount = { checks: z.number().int(), mentioned: z.number().int() };

export const ZVisibilityOutput = z.object({
  business: ZBusinessRef,
  visibilityScore: z.number().describe("Internal visibility score 0-100; shown only to the business itself"),
  geoScore: z.number().describe("Internal GEO score 0-100; shown only to the business itself"),
  citationRate: z
    .object({ checks: z.number().int(), mentioned: z.number().int(), rate: z.number().min(0).max(1) })
    .describe("Over the AI answers dated from since to until"),
  periodDays: z.number().int().describe("Days from since to until"),
  since: z.string().describe("Start of the citation window (ISO 8601): until minus periodDays"),
  until: z.string().describe("End of the citation window (ISO 8601): the time of this answer"),
  scale: z.object({ visibilityScore: z.string(), geoScore: z.string(), citationRate: z.string() }).describe("What each number means and its range"),
  byEngine: z
    .array(
      z.object({
        engine: z.string(),
        model: z.string().nullable(),
        ...ZEngineCount,
        rate: z.number().min(0).max(1).describe("mentioned / checks"),
        averagePosition: z.number().nullable().describe("Mean position where named; null when never named"),
        latestCheck: z.object({ checkedAt: z.string(), query: ZOwnerText }).nullable(),
        weeks: z.array(z.object({ week: z.string().describe("Monday, UTC"), ...ZEngineCount })).describe("Weeks with checks, oldest first"),
      }),
    )
    .describe("The period's checks (those of get_my_citations) per engine and model"),
  engines: ZCitationEngines,
  method: ZCitationMethod,
});

export type TVisibilityOutput = z.infer<typeof ZVisibilityOutput>;

export const getMyVisibilityScoreMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/owner/visibility",
    operationId: "getMyVisibilityScore",
    tags: ["owner"],
    summary: "The key's own business: internal scores and citation rate over a dated window",
    description: "Business-scoped key only (the MCP tool get_my_visibility_score). scale says what each number means.",
  },
};
