import { z } from "zod";
import type { DirectoryMeta } from "../../procedures/meta";

/** Shared pieces of the admin procedures served on REST: the path prefix and the slug parameter. */
export const ADMIN_BASE_PATH = "/api/v2/admin";

export const ZAdminSlug = z.string().trim().min(1).max(200).describe("Current or former slug of the business");

export function adminRoute(
  method: "GET" | "POST",
  path: string,
  operationId: string,
  summary: string,
  description: string,
  errorResponses: Record<number, string>,
): DirectoryMeta {
  return { openapi: { method, path: `${ADMIN_BASE_PATH}${path}`, operationId, summary, description, tags: ["admin"], protect: true, errorResponses } };
}
