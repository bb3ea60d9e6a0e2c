import { legacyScoreRequests, type Db } from "@directory/db";
import type { ContextLogger } from "../context";

/** Fields removed from public output by score contract 2.1-phase0. */
const LEGACY_SCORE_FIELDS = ["geoScore", "visibilityScore"] as const;

/** The legacy score fields named in a `fields=a,b` parameter (case-insensitive). */
export function requestedLegacyScoreFields(fields: string | undefined): string[] {
  if (!fields) return [];
  const asked = new Set(fields.split(",").map((field) => field.trim().toLowerCase()));
  return LEGACY_SCORE_FIELDS.filter((field) => asked.has(field.toLowerCase()));
}

/**
 * Records a client that still asks for the removed score fields (so we know who to contact
 * before the next contract); the fields stay omitted whatever is asked.
 */
export async function noteLegacyScoreRequest(
  db: Db,
  log: ContextLogger,
  params: { route: string; fieldsParam: string | undefined; apiKeyId: string | null },
): Promise<void> {
  const fields = requestedLegacyScoreFields(params.fieldsParam);
  if (fields.length === 0) return;
  await db.insert(legacyScoreRequests).values({ route: params.route, requestedFields: fields, apiKeyId: params.apiKeyId });
  log.info({ route: params.route, legacyFields: fields }, "legacy score fields requested; omitted under score contract 2.1-phase0");
}
