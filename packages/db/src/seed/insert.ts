import { getTableColumns } from "drizzle-orm";
import type { PgInsertValue, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../client";
import { businesses } from "../schema/businesses";
import { buyerQuestions } from "../schema/buyer-questions";
import { claims } from "../schema/claims";
import { offers } from "../schema/offers";
import { slugHistory } from "../schema/slug-history";
import type { BatchRows } from "./batch";

/** PostgreSQL allows 65,535 bind parameters per statement; stay well below it. */
const PARAMETERS_PER_STATEMENT = 60_000;

/** Multi-row inserts, split so no statement exceeds the parameter budget. */
export async function insertInChunks<TTable extends PgTable>(db: Db, table: TTable, rows: PgInsertValue<TTable>[]): Promise<void> {
  const columnCount = Object.keys(getTableColumns(table)).length;
  const rowsPerStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / columnCount));
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    await db.insert(table).values(rows.slice(start, start + rowsPerStatement));
  }
}

/**
 * One transaction per batch, so a failure never leaves a business without its claims. Parents go
 * first (foreign keys), and current claims before the superseded ones that point at them.
 */
export async function insertBatch(db: Db, rows: BatchRows): Promise<void> {
  await db.transaction(async (tx) => {
    await insertInChunks(tx, businesses, rows.businesses);
    await insertInChunks(tx, claims, rows.currentClaims);
    await insertInChunks(tx, claims, rows.supersededClaims);
    await insertInChunks(tx, slugHistory, rows.slugHistory);
    await insertInChunks(tx, offers, rows.offers);
    await insertInChunks(tx, buyerQuestions, rows.questions);
  });
}
