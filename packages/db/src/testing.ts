import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createDatabase, type Database, type Db } from "./client";
import { migrate } from "./migrate";
import { seedDemoData, type SeedOptions } from "./seed/index";

/**
 * Test databases. With TEST_DATABASE_URL (a PostgreSQL server URL) each call creates a fresh
 * database there and drops it on close; otherwise an in-memory PGlite is cloned from a template
 * built once per process (a PGlite cold start and migration take seconds).
 */
export interface TestDatabase extends Database {
  /** Closes the connection and, on PostgreSQL, drops the database. */
  destroy(): Promise<void>;
  /** On PostgreSQL, the database's URL, so a test can open a second, independent connection pool. */
  url?: string;
}

export interface TestDatabaseOptions {
  /** Seed the demo world; the default is a small world that keeps tests fast. */
  seed?: SeedOptions | false;
}

export const TEST_WORLD_BUSINESSES = 1500;

/** Writes a world into a migrated, empty database (the data seed, or a seed built on it). */
export type SeedWorld = (db: Db, options: SeedOptions) => Promise<unknown>;

/**
 * createTestDatabase for worlds written by `seedWorld`. packages/db knows only its data seed; a
 * package above it that seeds more (packages/api: the demo documents) makes its own, with its own
 * templates.
 */
export function testDatabaseFactory(seedWorld: SeedWorld): (options?: TestDatabaseOptions) => Promise<TestDatabase> {
  const templates = new Map<string, Promise<Blob>>();
  return async (options = {}) => {
    const seed = options.seed === false ? false : { businesses: TEST_WORLD_BUSINESSES, ...options.seed };
    const prepare = async (database: Database) => {
      await migrate(database);
      if (seed) await seedWorld(database.db, seed);
    };
    const serverUrl = process.env.TEST_DATABASE_URL;
    return serverUrl ? createPostgresTestDatabase(serverUrl, prepare) : createPgliteTestDatabase(templates, JSON.stringify(seed), prepare);
  };
}

/** Test databases holding packages/db's data-only demo world. */
export const createTestDatabase = testDatabaseFactory(seedDemoData);

/** A clone of the template prepared once per key (and process); the template is built on first use. */
async function createPgliteTestDatabase(
  templates: Map<string, Promise<Blob>>,
  templateKey: string,
  prepare: (database: Database) => Promise<void>,
): Promise<TestDatabase> {
  let template = templates.get(templateKey);
  if (!template) {
    template = (async () => {
      const database = await createDatabase({ memory: true });
      try {
        await prepare(database);
        return await dumpDataDir(database);
      } finally {
        await database.close();
      }
    })();
    templates.set(templateKey, template);
  }
  const database = await createDatabase({ memory: true, loadDataDir: await template });
  return { ...database, destroy: () => database.close() };
}

async function dumpDataDir(database: Database): Promise<Blob> {
  const client = (database.db as unknown as { $client: { dumpDataDir(compression?: "none"): Promise<Blob> } }).$client;
  return client.dumpDataDir("none");
}

async function createPostgresTestDatabase(serverUrl: string, prepare: (database: Database) => Promise<void>): Promise<TestDatabase> {
  const name = `directory_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await createDatabase({ url: url.toString(), maxConnections: 20 });
  const destroy = async () => {
    await database.close();
    const cleanup = postgres(serverUrl, { max: 1, onnotice: () => {} });
    try {
      await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
    } finally {
      await cleanup.end();
    }
  };
  try {
    await prepare(database);
  } catch (error) {
    await destroy();
    throw error;
  }
  return { ...database, destroy, url: url.toString() };
}
