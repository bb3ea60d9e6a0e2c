import { sql } from "drizzle-orm";
import { legacyScoreRequests, type Db } from "@directory/db";
import type { ContextLogger } from "../../context";

/** Fields removed from public output by score contract 2.1-phase0. */
const LEGACY_SCORE_FIELDS = ["geoScore", "visibilityScore"] as const;

/** The legacy score fields named in a `fields=a,b` parameter (case-insensitive). */
export function requestedLegacyScoreFields(fields: string | undefined): string[] {
  if (!fields) return [];
  const asked = new Set(fields.split(",").map((field) => field.trim().toLowerCase()));
  return LEGACY_SCORE_FIELDS.filter((field) => asked.has(field.toLowerCase()));
}

/**
 * Counts a client that still asks for the removed score fields (so we know who to contact before
 * the next contract), one counter per day, route and key; the fields stay omitted whatever is asked.
 */
export async function noteLegacyScoreRequest(
  db: Db,
  params: { log: ContextLogger; route: string; fieldsParam: string | undefined; apiKeyId: string | null },
): Promise<void> {
  const fields = requestedLegacyScoreFields(params.fieldsParam);
  if (fields.length === 0) return;
  const day = new Date().toISOString().slice(0, 10);
  await db
    .insert(legacyScoreRequests)
    .values({ day, route: params.route, apiKeyId: params.apiKeyId, requestedFields: fields.join(","), hits: 1 })
    .onConflictDoUpdate({
      target: [legacyScoreRequests.day, legacyScoreRequests.route, legacyScoreRequests.apiKeyId, legacyScoreRequests.requestedFields],
      set: { hits: sql`${legacyScoreRequests.hits} + 1` },
    });
  params.log.info({ route: params.route, legacyFields: fields }, "legacy score fields requested; omitted under score contract 2.1-phase0");
}
