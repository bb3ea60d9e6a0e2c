import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { rowsOf } from "../rows";

/** The bulk-loaded tables whose GIN/GiST indexes (full text, trigram) are built after the load. */
const BULK_TABLES = ["businesses", "business_search", "buyer_questions", "claims", "offers", "slug_history"];

export interface DeferredIndex {
  name: string;
  definition: string;
}


/**
 * Drops the GIN and GiST indexes of the bulk tables and returns their definitions, exactly as
 * PostgreSQL prints them (pg_get_indexdef), so they can be rebuilt after the load: one sorted
 * build is several times cheaper than maintaining a full-text or trigram index row by row.
 */
export async function dropSearchIndexes(db: Db): Promise<DeferredIndex[]> {
  const tables = sql.join(
    BULK_TABLES.map((table) => sql`${table}`),
    sql`, `,
  );
  const indexes = rowsOf<DeferredIndex>(
    await db.execute(sql`select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
      from pg_index i
      join pg_class c on c.oid = i.indexrelid
      join pg_class t on t.oid = i.indrelid
      join pg_am a on a.oid = c.relam
      where t.relnamespace = 'public'::regnamespace and t.relname in (${tables}) and a.amname in ('gin', 'gist')
      order by c.relname`),
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index if exists "public"."${index.name.replace(/"/g, '""')}"`));
  return indexes;
}

/** Rebuilds what dropSearchIndexes removed; the caller runs it even when the load failed. */
export async function rebuildSearchIndexes(db: Db, indexes: readonly DeferredIndex[]): Promise<void> {
  for (const index of indexes) await db.execute(sql.raw(index.definition));
}
