import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@directory/db";
import { SCORE_CONTRACT_VERSION } from "../search/disclosures";
import { heldPerDatabase } from "../shared/held-per-database";
import { edgeIsLive, NOT_LIVE } from "./graph-sql";

/**
 * Staleness bound of the statistics (GET /api/v2/knowledge-graph without a type). Counting every
 * mention and edge reads the graph's whole tables (p50 302 ms, p99 588 ms at a million businesses),
 * so each process holds the counts per database handle (held-per-database.ts): served as they are
 * for a minute, then served while one recount runs in the background, up to five minutes, after
 * which a request waits for the recount. An ingest batch through this handle recounts at once;
 * one run by another process (the admin CLI) shows within the bound. The answer says when it was
 * counted (countedAt).
 */
export const GRAPH_STATISTICS_MAX_AGE_MS = 60_000;
export const GRAPH_STATISTICS_HARD_MAX_AGE_MS = 5 * 60_000;

/** Counts over the graph's own tables, less what touches the few businesses not live: no businesses row is read per mention. */
async function countGraph(db: Db) {
  const [row] = rowsOf<{ documents: number; mentions: number; businesses: number; edges: number; last_ingest: Date | string | null }>(
    await db.execute(sql`
      with not_live as (${NOT_LIVE}),
      live_mentions as (
        select m.business_id from document_mentions m where not exists (select 1 from not_live n where n.id = m.business_id)
      )
      select
        (select count(*)::int from documents) as documents,
        (select count(*)::int from live_mentions) as mentions,
        (select count(distinct business_id)::int from live_mentions) as businesses,
        (select count(*)::int from co_mention_edges e
         where ${edgeIsLive}) as edges,
        (select max(ingested_at) from documents) as last_ingest`),
  );
  return {
    documents: Number(row?.documents ?? 0),
    mentions: Number(row?.mentions ?? 0),
    businessesMentioned: Number(row?.businesses ?? 0),
    edges: Number(row?.edges ?? 0),
    lastIngestAt: row?.last_ingest ? new Date(row.last_ingest).toISOString() : null,
  };
}

const heldCounts = heldPerDatabase(countGraph, { maxAgeMs: GRAPH_STATISTICS_MAX_AGE_MS, hardMaxAgeMs: GRAPH_STATISTICS_HARD_MAX_AGE_MS });

/** The graph's statistics, within the staleness bound above. */
export async function graphStatistics(db: Db) {
  const { value, takenAt } = await heldCounts.get(db);
  return { apiVersion: SCORE_CONTRACT_VERSION, type: "stats" as const, ...value, countedAt: new Date(takenAt).toISOString() };
}

/** The next request on this database recounts (after an ingest batch; tests). */
export function invalidateGraphStatistics(db: Db): void {
  heldCounts.invalidate(db);
}
