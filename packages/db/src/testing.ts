import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createDatabase, type Database } from "./client";
import { migrate } from "./migrate";
import { seedDemoWorld, type SeedOptions } from "./seed/index";

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

const templates = new Map<string, Promise<Blob>>();

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const seed = options.seed === false ? false : { businesses: TEST_WORLD_BUSINESSES, ...options.seed };
  const serverUrl = process.env.TEST_DATABASE_URL;
  return serverUrl ? createPostgresTestDatabase(serverUrl, seed) : createPgliteTestDatabase(seed);
}

async function prepare(database: Database, seed: SeedOptions | false): Promise<void> {
  await migrate(database);
  if (seed) await seedDemoWorld(database.db, seed);
}

async function createPgliteTestDatabase(seed: SeedOptions | false): Promise<TestDatabase> {
  const templateKey = JSON.stringify(seed);
  let template = templates.get(templateKey);
  if (!template) {
    template = (async () => {
      const database = await createDatabase({ memory: true });
      try {
        await prepare(database, seed);
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

async function createPostgresTestDatabase(serverUrl: string, seed: SeedOptions | false): Promise<TestDatabase> {
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
    await prepare(database, seed);
  } catch (error) {
    await destroy();
    throw error;
  }
  return { ...database, destroy, url: url.toString() };
}
