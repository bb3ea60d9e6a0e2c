import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { type ZEntityProfile, ZHistoryParam } from "./entity-profile.types";

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
      401: "history=true was asked without an API key",
      404: "Entity not found: no business has this id (a malformed id is not found either)",
      410: "Entity decommissioned: the business is inactive or its subscription expired",
    },
  },
};
