import { z } from "zod";
import type { DirectoryMeta } from "../../procedures/meta";
import { type ZSubmitCorrectionInput } from "../../procedures/submission-inputs";
import { ZCorrectionView } from "./corrections.types";

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
