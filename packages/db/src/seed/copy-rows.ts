import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { getTableName } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Sql, TransactionSql } from "postgres";
import type { Db } from "../client";
import { arrayLiteral } from "./array-literal";
import { insertableColumns, type JsonRow, seedColumnKind } from "./rows";

/**
 * COPY ... FROM STDIN for the seed's bulk tables on a PostgreSQL server. The JSON insert that
 * PGlite takes (insert.ts) makes the server parse a jsonb document and cast every field of every
 * row; COPY's text format goes straight through each column's input function, and the server's
 * CPU is what a million-business seed waits on.
 */

/** postgres-js when the database is a PostgreSQL server; null on PGlite. */
export function postgresClientOf(db: Db): Sql | null {
  const client = (db as unknown as { $client: unknown }).$client;
  return typeof client === "function" && "begin" in client ? (client as Sql) : null;
}

/** COPY text format: backslash, tab, newline and carriage return escaped; \N is NULL. */
function escapeCopyText(text: string): string {
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (char) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[char]!) : text;
}

/** Text, uuid, enum, numeric, number and boolean columns: the value's own string form. */
function scalarText(value: unknown, column: PgColumn): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  throw new Error(`copy: ${column.name} takes a scalar, not ${typeof value}`);
}

/**
 * A null for a jsonb column that cannot be NULL is the JSON value null: a claim that a business
 * has no rating or postal code yet states that fact, it does not lack a value.
 */
function isJsonNull(column: PgColumn): boolean {
  return seedColumnKind(column) === "PgJsonb" && column.notNull;
}

/** Types whose text form never holds a backslash, tab or line break: escaping them would only cost time. */
const PLAIN_TEXT_TYPES = new Set(["PgUUID", "PgInteger", "PgReal", "PgDoublePrecision", "PgBoolean"]);

type Encode = (value: unknown) => string;

/**
 * How one column's generated values become COPY text (dates travel as epoch milliseconds, see
 * rows.ts). Chosen once per column, not per value: a million-business seed encodes ~20M values.
 */
function encoderFor(column: PgColumn): Encode {
  const nullText = isJsonNull(column) ? "null" : "\\N";
  const encode = ((): Encode => {
    switch (seedColumnKind(column)) {
      case "PgTimestamp":
        return (value) => new Date(value as number).toISOString();
      case "PgJsonb":
        return (value) => escapeCopyText(JSON.stringify(value));
      case "PgArray":
        return (value) => escapeCopyText(arrayLiteral(value as (string | number)[]));
      default:
        return PLAIN_TEXT_TYPES.has(column.columnType) ? (value) => scalarText(value, column) : (value) => escapeCopyText(scalarText(value, column));
    }
  })();
  return (value) => (value === undefined ? "\\N" : value === null ? nullText : encode(value));
}

const LINES_PER_CHUNK = 1_000;

/** Rows into a table with one COPY, inside the caller's transaction. */
export async function copyRows<TTable extends PgTable>(sql: TransactionSql, table: TTable, rows: readonly JsonRow<TTable>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = insertableColumns(table);
  const encoders = columns.map(([key, column]) => [key, encoderFor(column)] as const);
  const lines = rows.map((row: Record<string, unknown>) => encoders.map(([key, encode]) => encode(row[key])).join("\t"));
  const tableName: string = getTableName(table);
  const target = await sql`copy ${sql(tableName)} (${sql(columns.map(([, column]) => column.name))}) from stdin`.writable();
  // Chunks of lines, not a line per write: each write is a socket write, and those are what cost.
  const chunks: string[] = [];
  for (let start = 0; start < lines.length; start += LINES_PER_CHUNK) chunks.push(`${lines.slice(start, start + LINES_PER_CHUNK).join("\n")}\n`);
  await pipeline(Readable.from(chunks), target);
}
