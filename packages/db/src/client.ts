import { mkdirSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { lockDataDir } from "./data-dir-lock";
import * as schema from "./schema/index";

/** The drizzle handle every service function takes; the same type for PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  driver: "pglite" | "postgres";
  /** Round-trips a trivial query; rejects when the database is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { url: string; maxConnections?: number }
  | { dataDir: string }
  | { memory: true; loadDataDir?: Blob };

export const PGLITE_EXTENSIONS = { pg_trgm };

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if ("url" in options) {
    const client = postgres(options.url, {
      max: options.maxConnections ?? 10,
      onnotice: () => {},
    });
    return {
      db: drizzlePostgres(client, { schema }) as unknown as Db,
      driver: "postgres",
      ping: async () => {
        await client`select 1`;
      },
      close: () => client.end({ timeout: 5 }),
    };
  }
  let client: PGlite;
  let releaseLock = () => {};
  if ("dataDir" in options) {
    mkdirSync(options.dataDir, { recursive: true });
    releaseLock = lockDataDir(options.dataDir);
    try {
      client = await PGlite.create(options.dataDir, { extensions: PGLITE_EXTENSIONS });
    } catch (error) {
      releaseLock();
      throw error;
    }
  } else {
    client = await PGlite.create({ extensions: PGLITE_EXTENSIONS, loadDataDir: options.loadDataDir });
  }
  const dataDir = "dataDir" in options ? options.dataDir : null;
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    driver: "pglite",
    ping: async () => {
      await client.query("select 1");
      // PGlite keeps answering from memory after its folder is removed: check the folder too.
      if (dataDir) await stat(join(dataDir, "PG_VERSION"));
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

/** DATABASE_URL selects PostgreSQL; otherwise embedded PGlite in DATA_DIR (default ./.data). */
export function databaseOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseOptions {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL };
  return { dataDir: `${env.DATA_DIR || "./.data"}/pglite` };
}
