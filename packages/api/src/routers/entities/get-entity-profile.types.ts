import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { DECOMMISSIONED_RESPONSE, HISTORY_NEEDS_KEY_RESPONSE, ZSlug } from "./entities.types";
import { type ZEntityProfile, ZHistoryParam } from "./entity-profile.types";

export const ZGetEntityProfileInput = z.object({
  slug: ZSlug,
  history: ZHistoryParam,
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
    description: "Authentication optional; history=true requires a key.",
    errorResponses: {
      400: "Invalid parameter: slug missing or longer than 200 characters, or history not true/false",
      401: HISTORY_NEEDS_KEY_RESPONSE,
      404: "Entity not found: no business has this slug, current or former",
      410: DECOMMISSIONED_RESPONSE,
    },
  },
};
