import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { rowsOf } from "../rows";
import { postgresClientOf } from "./copy-rows";

/** The bulk-loaded tables: their keys, foreign keys and indexes are built after the load. */
const BULK_TABLES = ["businesses", "business_search", "buyer_questions", "claims", "offers", "slug_history"];

/** A constraint or index removed before the load, with the statement that puts it back. */
export interface DeferredDdl {
  name: string;
  restore: string;
  /** Keys first, then indexes, then the foreign keys that need both. */
  step: "key" | "index" | "foreignKey";
}

function quoted(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

const bulkTables = () =>
  sql.join(
    BULK_TABLES.map((table) => sql`${table}`),
    sql`, `,
  );

/**
 * Removes what makes a row-by-row load slow and returns how to put it back, exactly as
 * PostgreSQL prints it (pg_get_constraintdef, pg_get_indexdef), as pg_restore does:
 * - foreign keys from or to a bulk table: each loaded claim paid a lookup and a row lock on its
 *   business (11 million at 1M businesses); re-adding one checks every row in one join;
 * - primary keys and unique constraints of the bulk tables: btrees over random uuids that every
 *   row wrote all over; one sorted build is several times cheaper, and it checks uniqueness;
 * - every other index of the bulk tables (full text, trigram, secondary btrees).
 * The returned list is in restore order: keys, then indexes, then the foreign keys that need them.
 */
export async function deferForBulkLoad(db: Db): Promise<DeferredDdl[]> {
  const constraints = rowsOf<{ name: string; tableName: string; type: string; definition: string }>(
    await db.execute(sql`select k.conname as name, t.relname as "tableName", k.contype as type, pg_get_constraintdef(k.oid) as definition
      from pg_constraint k
      join pg_class t on t.oid = k.conrelid
      left join pg_class referenced on referenced.oid = k.confrelid
      where t.relnamespace = 'public'::regnamespace
        and ((k.contype = 'f' and (t.relname in (${bulkTables()}) or referenced.relname in (${bulkTables()})))
          or (k.contype in ('p', 'u') and t.relname in (${bulkTables()})))
      order by k.conname`),
  );
  const indexes = rowsOf<{ name: string; definition: string }>(
    await db.execute(sql`select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
      from pg_index i
      join pg_class c on c.oid = i.indexrelid
      join pg_class t on t.oid = i.indrelid
      where t.relnamespace = 'public'::regnamespace and t.relname in (${bulkTables()})
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
      order by c.relname`),
  );
  const asDeferred = (constraint: (typeof constraints)[number]): DeferredDdl => ({
    name: constraint.name,
    step: constraint.type === "f" ? "foreignKey" : "key",
    restore: `alter table "public".${quoted(constraint.tableName)} add constraint ${quoted(constraint.name)} ${constraint.definition}`,
  });
  const foreignKeys = constraints.filter((constraint) => constraint.type === "f");
  const keys = constraints.filter((constraint) => constraint.type !== "f");

  for (const constraint of [...foreignKeys, ...keys]) {
    await db.execute(sql.raw(`alter table "public".${quoted(constraint.tableName)} drop constraint ${quoted(constraint.name)}`));
  }
  for (const index of indexes) await db.execute(sql.raw(`drop index "public".${quoted(index.name)}`));
  return [
    ...keys.map(asDeferred),
    ...indexes.map((index): DeferredDdl => ({ name: index.name, restore: index.definition, step: "index" })),
    ...foreignKeys.map(asDeferred),
  ];
}

/**
 * Memory for each index build on a PostgreSQL server (its default, 64 MB, sorts the claims' keys
 * through disk in many runs).
 */
const INDEX_BUILD_MEMORY = "1GB";
/** Index builds run at once on a PostgreSQL server: each is one sort on one core. */
const PARALLEL_BUILDS = 2;

async function restoreOne(db: Db, item: DeferredDdl): Promise<void> {
  const server = postgresClientOf(db);
  try {
    if (server)
      await server.begin(async (sql) => {
        await sql`select set_config('maintenance_work_mem', ${INDEX_BUILD_MEMORY}, true)`;
        await sql.unsafe(item.restore);
      });
    else await db.execute(sql.raw(item.restore));
  } catch (error) {
    throw new Error(`seed: restoring ${item.name} after the load failed; the database is incomplete, recreate it`, { cause: error });
  }
}

/**
 * Puts back what deferForBulkLoad removed; the caller runs it even when the load failed. A
 * statement that fails (a duplicate key, a dangling reference) names what the load broke. On a
 * PostgreSQL server the indexes are built two at a time (CREATE INDEX takes a lock that lets
 * another build of the same table run); keys and foreign keys lock their tables, one at a time.
 */
export async function restoreAfterBulkLoad(db: Db, deferred: readonly DeferredDdl[]): Promise<void> {
  const indexes = deferred.filter((item) => item.step === "index");
  for (const item of deferred.filter((item) => item.step === "key")) await restoreOne(db, item);
  const workers = postgresClientOf(db) ? PARALLEL_BUILDS : 1;
  let next = 0;
  const settled = await Promise.allSettled(
    Array.from({ length: workers }, async () => {
      while (next < indexes.length) await restoreOne(db, indexes[next++]!);
    }),
  );
  const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  if (failed) throw failed.reason;
  for (const item of deferred.filter((item) => item.step === "foreignKey")) await restoreOne(db, item);
}
