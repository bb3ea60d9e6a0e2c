import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { type ZEntityProfile, ZHistoryParam } from "./entity-profile.types";
import { DECOMMISSIONED_RESPONSE, HISTORY_NEEDS_KEY_RESPONSE } from "./entities.types";

export const ZGetEntityByIdInput = z.object({
  id: z.string().trim().min(1).max(64).describe("Immutable business id (UUID)"),
  format: z.enum(["json"]).default("json").describe("Only json is served"),
  history: ZHistoryParam,
});

export type TGetEntityByIdInput = z.input<typeof ZGetEntityByIdInput>;
export type TGetEntityByIdOutput = z.infer<typeof ZEntityProfile>;

export const getEntityByIdMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/entity/{id}",
    operationId: "getEntityById",
    tags: ["entities"],
    summary: "Canonical entity lookup by immutable id",
    description: "Survives renames and slug changes. Same body as getEntityProfile.",
    errorResponses: {
      400: "Invalid parameter: id longer than 64 characters, format other than json, or history not true/false",
      401: HISTORY_NEEDS_KEY_RESPONSE,
      404: "Entity not found: no business has this id (a malformed id is not found either)",
      410: DECOMMISSIONED_RESPONSE,
    },
  },
};
