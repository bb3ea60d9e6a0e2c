import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { guardDataDir } from "./data-dir-guard";
import { lockDataDir } from "./data-dir-lock";
import { createLivenessGuard } from "./postgres-liveness";
import * as schema from "./schema/index";

/** The drizzle handle every service function takes; the same type for PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  driver: "pglite" | "postgres";
  /** Round-trips a trivial query; rejects when the database is unreachable. */
  ping(): Promise<void>;
  /** Calls onNotify for each NOTIFY on the channel; resolves to a function that stops listening. */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** How long PostgreSQL may take before it counts as failing; 0 turns one off. */
export interface DatabaseTimeouts {
  /** A new connection must hear from the server within this. */
  connectMs: number;
  /** Server-side statement_timeout; a connection that sent a query and hears nothing for this plus 1 s is dropped. */
  statementMs: number;
  /** Idle connections are closed after this. */
  idleMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 2_000, statementMs: 3_000, idleMs: 60_000 };

/** While PostgreSQL is unreachable, queries fail at once except one connection attempt per this interval. */
const RECONNECT_INTERVAL_MS = 1_000;

/**
 * `url` leads to a connection pooler in transaction mode (PgBouncer's pool_mode = transaction),
 * which lends a server connection for one transaction (or one statement outside any) and then to
 * another client. What outlives a transaction on the server connection cannot go through it: named
 * prepared statements, LISTEN, session settings. Those take the primary directly.
 */
export interface TransactionPooler {
  /** The primary itself, bypassing the pooler: LISTEN, and the chores (migrations, seeds) through forChores. */
  directUrl: string;
}

export type DatabaseOptions =
  | { url: string; maxConnections?: number; timeouts?: Partial<DatabaseTimeouts>; transactionPooler?: TransactionPooler }
  | { dataDir: string }
  | { memory: true; loadDataDir?: Blob };

/** A postgres-js client with its liveness guard, which `end` closes too. */
function openPostgresJs(url: string, options: { max: number; timeouts: DatabaseTimeouts; pooled: boolean }) {
  const { timeouts, pooled } = options;
  const liveness = createLivenessGuard({
    connectTimeoutMs: timeouts.connectMs,
    answerTimeoutMs: timeouts.statementMs > 0 ? timeouts.statementMs + 1_000 : 0,
    retryIntervalMs: RECONNECT_INTERVAL_MS,
  });
  const client = postgres(url, {
    max: options.max,
    onnotice: () => {},
    connect_timeout: timeouts.connectMs / 1_000,
    idle_timeout: timeouts.idleMs / 1_000,
    // A named statement lives on the server connection that prepared it, and through a transaction
    // pooler the next transaction may run on another ("prepared statement does not exist"), or
    // clash with a name another client prepared there. postgres-js's own option outranks each
    // query's (executePrepared's and rowsAsSent's prepare: true): every statement is then unnamed.
    prepare: !pooled,
    // PgBouncer refuses a startup parameter it does not track (statement_timeout, and `options`
    // too on 1.18): behind one, its connect_query sets the timeout (docs/operations.md).
    connection: pooled ? {} : { statement_timeout: timeouts.statementMs },
    // The liveness guard paces attempts while the server is down; postgres-js's own backoff
    // (up to 20 s) would hold queries far longer than the timeouts above.
    backoff: () => 0,
    // Not in postgres-js's type definitions, but a documented option ("Custom socket").
    socket: liveness.socket,
  } as postgres.Options<Record<string, never>>);
  return {
    client,
    end: async () => {
      liveness.close();
      await client.end({ timeout: 5 });
    },
  };
}

/**
 * pg_trgm: name search. Not cube + earthdistance (near-a-point search, migration 0019): PGlite
 * 0.5.16 with them loaded answers pg_trgm queries with no rows or hangs, so on the embedded
 * database near-a-point search measures distance in plain SQL there (services/where-when/near.ts).
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if ("url" in options) {
    const timeouts = { ...DEFAULT_DATABASE_TIMEOUTS, ...options.timeouts };
    const pooler = options.transactionPooler;
    const main = openPostgresJs(options.url, { max: options.maxConnections ?? 10, timeouts, pooled: pooler !== undefined });
    // LISTEN through a transaction pooler subscribes a server connection the pooler then lends to
    // others: no notification would reach us. postgres-js listens on a connection of its own,
    // opened by the first listen: on the direct URL behind a pooler.
    let listener: ReturnType<typeof openPostgresJs> | undefined;
    return {
      db: drizzlePostgres(main.client, { schema }) as unknown as Db,
      driver: "postgres",
      ping: async () => {
        await main.client`select 1`;
      },
      listen: async (channel, onNotify) => {
        listener ??= pooler ? openPostgresJs(pooler.directUrl, { max: 1, timeouts, pooled: false }) : main;
        const { unlisten } = await listener.client.listen(channel, onNotify);
        return unlisten;
      },
      close: async () => {
        if (listener && listener !== main) await listener.end();
        await main.end();
      },
    };
  }
  let client: PGlite;
  let releaseLock = () => {};
  if ("dataDir" in options) {
    mkdirSync(options.dataDir, { recursive: true });
    releaseLock = lockDataDir(options.dataDir);
    try {
      client = await PGlite.create(options.dataDir, { extensions: PGLITE_EXTENSIONS });
      guardDataDir(client, options.dataDir);
    } catch (error) {
      releaseLock();
      throw error;
    }
  } else {
    client = await PGlite.create({ extensions: PGLITE_EXTENSIONS, loadDataDir: options.loadDataDir });
  }
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    driver: "pglite",
    ping: async () => {
      // Fails once the data folder is gone (data-dir-guard.ts), though PGlite would still answer from memory.
      await client.query("select 1");
    },
    listen: async (channel, onNotify) => {
      const unlisten = await client.listen(channel, onNotify);
      return unlisten;
    },
    close: async () => {
      try {
        await client.close();
      } finally {
        releaseLock();
      }
    },
  };
}

/**
 * For database chores (migrate, seed, ingest, benchmarks' set-up): the same options without the
 * statement timeout, which bounds a request's queries and would cut a million-row index build short.
 * Behind a transaction pooler, on the direct URL: the pooler's connections carry the timeout its
 * connect_query sets, which no startup parameter can lift.
 */
export function forChores(options: DatabaseOptions): DatabaseOptions {
  if (!("url" in options)) return options;
  const { transactionPooler, ...direct } = options;
  return { ...direct, url: transactionPooler?.directUrl ?? options.url, timeouts: { ...options.timeouts, statementMs: 0 } };
}
