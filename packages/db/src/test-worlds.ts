import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { boundedServerWait } from "./test-database-waits";

/**
 * Test worlds built once per test run and shared by every test file of it. vitest runs each file
 * in its own process, so a world memoised in a process would be migrated and seeded again by every
 * file; the run's global setup (vitest.global-setup.ts) names a folder and a run id, and the first
 * file that needs a world builds it under a lock while the others wait for it:
 * - PGlite: the world's data folder, dumped to a file in TEST_WORLDS_DIR, loaded by each file;
 * - PostgreSQL: a template database named after the run, copied by `create database ... template`.
 * Outside such a run (no TEST_RUN_ID) each process builds what it needs, as before.
 */

const WAIT_MS = 100;

export interface TestRun {
  /** Identifies the run's template databases, so its teardown drops exactly those. */
  id: string;
  /** The run's scratch folder for dumped PGlite worlds and their locks. */
  worldsDir: string;
}

export function currentTestRun(): TestRun | null {
  const id = process.env.TEST_RUN_ID;
  const worldsDir = process.env.TEST_WORLDS_DIR;
  return id && worldsDir ? { id, worldsDir } : null;
}

/** A short stable name for a world's key (its seed function and options). */
export function worldDigest(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

/** The template database of one world in one run (PostgreSQL names are at most 63 bytes). */
export function templateDatabaseName(runId: string, key: string): string {
  return `${templateDatabasePrefix(runId)}${worldDigest(key)}`;
}

export function templateDatabasePrefix(runId: string): string {
  return `directory_tpl_${runId}_`;
}

/** The dumped PGlite world of `key`, built by the first file of the run that asks for it. */
export async function sharedPgliteWorld(run: TestRun, key: string, build: () => Promise<Blob>): Promise<Blob> {
  const file = path.join(run.worldsDir, `${worldDigest(key)}.tar`);
  const lock = `${file}.lock`;
  for (;;) {
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const held = tryLock(lock);
    if (!held) {
      await sleep(WAIT_MS);
      continue;
    }
    try {
      if (existsSync(file)) continue;
      const blob = await build();
      // Written aside and renamed, so a reader never loads half a file.
      writeFileSync(`${file}.partial`, Buffer.from(await blob.arrayBuffer()));
      renameSync(`${file}.partial`, file);
      return blob;
    } finally {
      rmSync(lock, { force: true });
    }
  }
}

/** Takes the lock file, or clears it when the process that held it is gone; true when held now. */
function tryLock(lock: string): boolean {
  try {
    const fd = openSync(lock, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const holder = Number(readFileSync(lock, "utf8"));
  if (holder && !processAlive(holder)) rmSync(lock, { force: true });
  return false;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The template database of `key` in this run, built by the first file that asks for it under an
 * advisory lock. It is built under another name and renamed when complete, so a builder that died
 * half-way leaves nothing a later file would copy.
 */
export async function sharedPostgresWorld(serverUrl: string, run: TestRun, key: string, build: (url: string) => Promise<void>): Promise<string> {
  const name = templateDatabaseName(run.id, key);
  const partial = `${name}_p`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const lockId = BigInt.asIntN(64, BigInt(`0x${worldDigest(key)}`));
    await boundedServerWait(
      serverUrl,
      `waiting for the test world ${worldDigest(key)}, which another file builds`,
      admin`select pg_advisory_lock(${lockId.toString()}::bigint)`,
    );
    try {
      const [existing] = await admin`select 1 from pg_database where datname = ${name}`;
      if (!existing) {
        await admin.unsafe(`drop database if exists "${partial}" with (force)`);
        await admin.unsafe(`create database "${partial}"`);
        await build(databaseUrl(serverUrl, partial));
        await admin.unsafe(`alter database "${partial}" rename to "${name}"`);
      }
    } finally {
      await admin`select pg_advisory_unlock(${lockId.toString()}::bigint)`;
    }
  } finally {
    // Bounded: after a failed wait the lock request is still pending on this connection.
    await admin.end({ timeout: 5 });
  }
  return name;
}

/** Drops the run's template databases (the global setup's teardown). */
export async function dropRunTemplates(serverUrl: string, runId: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await admin<{ datname: string }[]>`select datname from pg_database where starts_with(datname, ${templateDatabasePrefix(runId)})`;
    for (const { datname } of rows) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
  } finally {
    await admin.end();
  }
}

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
