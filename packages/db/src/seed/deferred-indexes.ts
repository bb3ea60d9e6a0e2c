import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { rowsOf } from "../rows";

/** The bulk-loaded tables whose secondary indexes are built after the load. */
const BULK_TABLES = ["businesses", "business_search", "buyer_questions", "claims", "offers", "slug_history"];

export interface DeferredIndex {
  name: string;
  definition: string;
}

/**
 * Drops the secondary indexes of the bulk tables (every index that backs no constraint: full
 * text, trigram, and the btrees over random uuids, which a row-by-row load writes all over) and
 * returns their definitions, exactly as PostgreSQL prints them (pg_get_indexdef), so they can be
 * rebuilt after the load: one sorted build is several times cheaper than maintaining an index
 * row by row. Primary keys and unique constraints stay (foreign keys and slugs rely on them); a
 * unique index that backs no constraint (claims_current_uq) checks the loaded rows when rebuilt.
 */
export async function dropSecondaryIndexes(db: Db): Promise<DeferredIndex[]> {
  const tables = sql.join(
    BULK_TABLES.map((table) => sql`${table}`),
    sql`, `,
  );
  const indexes = rowsOf<DeferredIndex>(
    await db.execute(sql`select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
      from pg_index i
      join pg_class c on c.oid = i.indexrelid
      join pg_class t on t.oid = i.indrelid
      where t.relnamespace = 'public'::regnamespace and t.relname in (${tables})
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
      order by c.relname`),
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index if exists "public"."${index.name.replace(/"/g, '""')}"`));
  return indexes;
}

/** Rebuilds what dropSecondaryIndexes removed; the caller runs it even when the load failed. */
export async function rebuildSecondaryIndexes(db: Db, indexes: readonly DeferredIndex[]): Promise<void> {
  for (const index of indexes) await db.execute(sql.raw(index.definition));
}
