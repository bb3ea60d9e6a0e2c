import { z } from "zod";
import { CORRECTABLE_PROPERTIES } from "@directory/db/enums";
import type { DirectoryMeta } from "../../trpc";
import { ZOperatingStatusValue } from "../../services/claims/claim-values";
import { ZOwnerLongText } from "../owner-text.types";
import { ZCorrectionView } from "./corrections.types";

/*
 * The schema lives apart from its procedure because trpc.ts builds the correction procedure (and
 * its limits) from it. Property and value are checked by the write path's own rule (claim-values.ts)
 * in the service, so a bad one is the same 400 as an owner edit's, naming the property.
 */
export const ZSubmitCorrectionInput = z.object({
  slug: z.string().trim().min(1).max(200).describe("Business slug"),
  property: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe(`One of ${CORRECTABLE_PROPERTIES.join(", ")}`),
  value: z.unknown().optional().describe("Correct value; null removes it"),
  operatingStatus: ZOperatingStatusValue.optional().describe("Or, for a closure, this instead"),
  evidence: ZOwnerLongText.describe("Text or URL showing it; cut at 1,000 chars"),
  observedAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/, "an ISO date-time with its offset")
    .refine((text) => !Number.isNaN(Date.parse(text)), "an ISO date-time that exists")
    .optional()
    .describe("When seen"),
  dryRun: z.boolean().optional().describe("Validate only"),
});

/** The correction as its status shows it; a dry run answers the cleaned proposal with no id (nothing was written). */
export const ZSubmitCorrectionOutput = ZCorrectionView.extend({
  correctionId: z.string().nullable().describe("Poll it at GET /api/v2/corrections/{id}; null for a dry run"),
  createdAt: z.string().nullable(),
  dryRun: z.boolean(),
});

export type TSubmitCorrectionInput = z.input<typeof ZSubmitCorrectionInput>;
export type TSubmitCorrectionOutput = z.infer<typeof ZSubmitCorrectionOutput>;

export const submitCorrectionMeta: DirectoryMeta = {
  successStatus: 201,
  openapi: {
    method: "POST",
    path: "/api/v2/corrections",
    operationId: "submitCorrection",
    tags: ["corrections"],
    summary: "Say a fact of a listing is wrong and propose the right value",
    description:
      "Body: {slug, property, value} or {slug, operatingStatus}, with evidence (text or URL, never fetched by the server; cleaned and cut at 1,000 characters, never refused for length), " +
      "observedAt and dryRun optional (a dry run answers 201 with correctionId null and writes nothing). The value passes the same rule as an owner edit. A correction never changes a fact by itself: it is pending until an admin accepts it " +
      "(then it is an admin_verified claim whose source is correction:<id>) or rejects it. The same value proposed by independent callers raises its supporters. " +
      "Anonymous callers may send 10 an hour per address, keyed callers 100 an hour per key. The business's owner is told (webhook correction.created). dryRun validates and writes nothing.",
    errorResponses: {
      400: "Invalid body: an unknown property, a value that fails its rule (the message names the property), no evidence, or observedAt in the future",
      404: "No business has this slug",
      410: "The business is out of service",
    },
  },
};
