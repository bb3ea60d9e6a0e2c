import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { ZCategoryParam, ZCityParam, ZResolvedCategory, ZResolvedCity } from "../search/search.types";
import { ZOwnerLongText, ZOwnerText } from "../../services/shared/owner-text-schemas";
import { DECOMMISSIONED_RESPONSE } from "../entities/entities.types";

export const ZGetKnowledgeGraphInput = z.object({
  type: z
    .enum(["network", "complementary", "top_pairs"])
    .optional()
    .describe("network (needs businessId), complementary (needs category; city optional), top_pairs; omit for aggregate statistics"),
  businessId: z.string().trim().min(1).max(200).optional().describe("With type=network: the business's immutable id; a current or former slug is accepted too"),
  category: ZCategoryParam.optional().describe('With type=complementary: the category whose companions to list, e.g. "dentist"'),
  city: ZCityParam.optional().describe('With type=complementary: limit to this city, e.g. "Mumbai"; omit for every city'),
});

const ZGraphBusiness = z.object({
  id: z.string().describe("Immutable business id"),
  slug: z.string(),
  name: ZOwnerText,
  categorySlug: z.string(),
  city: z.string(),
});

const ZSupportingDocument = z.object({
  id: z.string(),
  kind: z.enum(["ai_answer", "article"]),
  source: ZOwnerText.describe("Where the text came from"),
  engine: ZOwnerText.nullable().describe("The AI platform that answered; null for articles"),
  fetchedAt: z.string(),
  excerpt: ZOwnerLongText.describe("Third-party text around the two names"),
});

const ZNetwork = z.object({
  apiVersion: z.string(),
  type: z.literal("network"),
  business: ZGraphBusiness,
  neighbours: z
    .array(
      z.object({
        business: ZGraphBusiness,
        weight: z.number().int().describe("Documents naming both businesses"),
        documents: z.array(ZSupportingDocument).describe("A few of those documents, newest first"),
      }),
    )
    .describe("Co-mentioned businesses, strongest first"),
  total: z.number().int(),
  limits: z.object({ neighbours: z.number().int(), documentsPerEdge: z.number().int() }),
});

const ZComplementary = z.object({
  apiVersion: z.string(),
  type: z.literal("complementary"),
  category: ZResolvedCategory,
  city: ZResolvedCity.nullable(),
  documents: z.number().int().describe("Documents naming a business of the category (in the city)"),
  categories: z.array(
    z.object({
      category: ZResolvedCategory,
      coMentions: z.number().int().describe("Documents naming both categories"),
      share: z.number().describe("coMentions / documents"),
      lift: z.number().describe("share / this category's share of all documents there; above 1 = more often than chance"),
    }),
  ),
  total: z.number().int(),
});

const ZTopPairs = z.object({
  apiVersion: z.string(),
  type: z.literal("top_pairs"),
  pairs: z.array(z.object({ businesses: z.array(ZGraphBusiness).length(2), weight: z.number().int() })).describe("Strongest pairs first"),
  total: z.number().int(),
});

const ZStatistics = z.object({
  apiVersion: z.string(),
  type: z.literal("stats"),
  documents: z.number().int(),
  mentions: z.number().int().describe("Mentions of businesses that are listed"),
  businessesMentioned: z.number().int(),
  edges: z.number().int(),
  lastIngestAt: z.string().nullable(),
  countedAt: z
    .string()
    .describe(
      "When these counts were taken: held up to 5 minutes (a minute, plus one recount, on a server asked at least once a minute); an ingest batch on this server recounts at once",
    ),
});

/** Knowledge graph data (spec 4.3); `type` says which shape. Derived from document text only. */
export const ZKnowledgeGraph = z.discriminatedUnion("type", [ZNetwork, ZComplementary, ZTopPairs, ZStatistics]);

export type TGetKnowledgeGraphInput = z.input<typeof ZGetKnowledgeGraphInput>;
export type TGetKnowledgeGraphOutput = z.infer<typeof ZKnowledgeGraph>;

export const getKnowledgeGraphMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/knowledge-graph",
    operationId: "getKnowledgeGraph",
    tags: ["graph"],
    summary: "Co-citation knowledge graph: businesses and categories named together in AI answers and articles",
    description:
      "Authentication optional (anonymous daily limit). Edges are counted from the text of stored documents; decommissioned businesses are left out. " +
      "The statistics (no type) are held up to 5 minutes and say when they were counted (countedAt).",
    errorResponses: {
      400: "Invalid parameter: a parameter the type needs is missing (network: businessId; complementary: category), one is given that the type does not use, or a value is malformed",
      404: "Not found: no business has this id or slug, or the category or city is unknown",
      410: DECOMMISSIONED_RESPONSE,
    },
  },
};
