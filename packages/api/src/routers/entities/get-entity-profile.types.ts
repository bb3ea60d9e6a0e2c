import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { isoInstant } from "../../services/shared/instants";
import { DECOMMISSIONED_RESPONSE, HISTORY_NEEDS_KEY_RESPONSE, ZSlug } from "./entities.types";
import { type ZEntityProfile, ZHistoryParam } from "./entity-profile.types";

export const ZGetEntityProfileInput = z.object({
  slug: ZSlug,
  history: ZHistoryParam,
  asOf: isoInstant()
    .optional()
    .describe("ISO date-time: the facts as they stood then, from the claim history; needs an API key; before the business existed: 404"),
});

export type TGetEntityProfileInput = z.input<typeof ZGetEntityProfileInput>;
export type TGetEntityProfileOutput = z.infer<typeof ZEntityProfile>;

export const getEntityProfileMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/entity-profile",
    operationId: "getEntityProfile",
    tags: ["entities"],
    summary: "Full structured entity record with provenance-tracked claims",
    description:
      "Authentication optional; history=true and asOf require a key. Every claim carries staleAfter and stale (the useful-life policy: hours 180 days, phone 365, description 730); " +
      "operatingStatus says whether the business is open, temporarily closed or permanently closed (a closed business answers 200 here while no list shows it).",
    errorResponses: {
      400: "Invalid parameter: slug missing or longer than 200 characters, history not true/false, asOf not an ISO date-time in the years 0001 to 9999 or in the future, or asOf with history=true",
      401: `${HISTORY_NEEDS_KEY_RESPONSE}, or asOf without one`,
      404: "Entity not found: no business has this slug, current or former, or it did not exist yet at asOf",
      410: DECOMMISSIONED_RESPONSE,
    },
  },
};
