import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createDatabase, type Database, type Db } from "./client";
import { migrate } from "./migrate";
import { seedDemoData, type SeedOptions } from "./seed/index";
import { boundedServerWait } from "./test-database-waits";
import { currentTestRun, databaseUrl, sharedPgliteWorld, sharedPostgresWorld } from "./test-worlds";

/**
 * Test databases. With TEST_DATABASE_URL (a PostgreSQL server URL) each call creates a fresh
 * database there, copied from the run's template of its world, and drops it on close; otherwise
 * an in-memory PGlite is loaded from the run's dump of its world. Each world is migrated and
 * seeded once per test run (test-worlds.ts), not once per file.
 */
export interface TestDatabase extends Database {
  /** Closes the connection and, on PostgreSQL, drops the database. */
  destroy(): Promise<void>;
  /** On PostgreSQL, the database's URL, so a test can open a second, independent connection pool. */
  url?: string;
}

/**
 * The worlds tests share: few, so a run builds few. `seed: false` is the migrated, empty
 * database; the default is the full test world; SMALL_TEST_WORLD serves files whose tests write
 * or read every business and would only grow slower on the full one.
 */
export interface TestDatabaseOptions {
  seed?: SeedOptions | false;
}

export const TEST_WORLD_BUSINESSES = 1500;
export const SMALL_TEST_WORLD: SeedOptions = { businesses: 300 };

/** Writes a world into a migrated, empty database (the data seed, or a seed built on it). */
export type SeedWorld = (db: Db, options: SeedOptions) => Promise<unknown>;

/**
 * createTestDatabase for worlds written by `seedWorld`, named `worldName` in the run's shared
 * worlds. packages/db knows only its data seed; a package above it that seeds more (packages/api:
 * the demo documents) makes its own.
 */
export function testDatabaseFactory(worldName: string, seedWorld: SeedWorld): (options?: TestDatabaseOptions) => Promise<TestDatabase> {
  const inProcess = new Map<string, Promise<Blob>>();
  return async (options = {}) => {
    const seed = options.seed === false ? false : { businesses: TEST_WORLD_BUSINESSES, ...options.seed };
    // An empty world is the same whichever seed would have filled it.
    const key = seed ? `${worldName}:${JSON.stringify(seed)}` : "migrated";
    const prepare = async (database: Database) => {
      await migrate(database);
      if (seed) await seedWorld(database.db, seed);
    };
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (serverUrl) return createPostgresTestDatabase(serverUrl, key, prepare);
    const run = currentTestRun();
    const build = () => buildPgliteWorld(prepare);
    let world = inProcess.get(key);
    if (!world) {
      world = run ? sharedPgliteWorld(run, key, build) : build();
      inProcess.set(key, world);
    }
    const database = await createDatabase({ memory: true, loadDataDir: await world });
    return { ...database, destroy: () => database.close() };
  };
}

/** Test databases holding packages/db's data-only demo world. */
export const createTestDatabase = testDatabaseFactory("data", seedDemoData);

async function buildPgliteWorld(prepare: (database: Database) => Promise<void>): Promise<Blob> {
  const database = await createDatabase({ memory: true });
  try {
    await prepare(database);
    const client = (database.db as unknown as { $client: { dumpDataDir(compression?: "none"): Promise<Blob> } }).$client;
    return await client.dumpDataDir("none");
  } finally {
    await database.close();
  }
}

/** A fresh database: a copy of the run's template of the world, or outside a run one prepared here. */
async function createPostgresTestDatabase(serverUrl: string, key: string, prepare: (database: Database) => Promise<void>): Promise<TestDatabase> {
  const run = currentTestRun();
  const template = run
    ? await sharedPostgresWorld(serverUrl, run, key, async (url) => {
        const database = await createDatabase({ url, maxConnections: 20 });
        try {
          await prepare(database);
        } finally {
          await database.close();
        }
      })
    : null;
  const name = `directory_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const create = template ? `create database "${name}" template "${template}"` : `create database "${name}"`;
  await adminQuery(serverUrl, create, `creating the test database ${name}`);
  const url = databaseUrl(serverUrl, name);
  const database = await createDatabase({ url, maxConnections: 20 });
  const destroy = async () => {
    await database.close();
    await adminQuery(serverUrl, `drop database if exists "${name}" with (force)`, `dropping the test database ${name}`);
  };
  if (!template) {
    try {
      await prepare(database);
    } catch (error) {
      await destroy();
      throw error;
    }
  }
  return { ...database, destroy, url };
}

/** One statement on its own connection, bounded by boundedServerWait: `what` names it should it hang. */
async function adminQuery(serverUrl: string, statement: string, what: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await boundedServerWait(serverUrl, what, admin.unsafe(statement));
  } finally {
    await admin.end({ timeout: 5 });
  }
}
