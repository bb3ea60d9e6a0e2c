import postgres from "postgres";
import { createDatabase, forChores, migrate, type Database } from "@directory/db";

/**
 * A fresh, migrated database on the bench's PostgreSQL server for one part (named after it and this
 * process), dropped afterwards whatever happens, so a part measures an empty database and leaves none.
 */
export async function withScratchDatabase(serverUrl: string, part: string, run: (database: Database, databaseUrl: string) => Promise<void>): Promise<void> {
  const name = `directory_bench_${part}_${process.pid}`;
  const adminUrl = new URL(serverUrl);
  adminUrl.pathname = "/postgres";
  const databaseUrl = new URL(serverUrl);
  databaseUrl.pathname = `/${name}`;
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const database = await createDatabase(forChores({ url: databaseUrl.toString() }));
  try {
    await migrate(database);
    await run(database, databaseUrl.toString());
  } finally {
    await database.close();
    try {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
    } finally {
      await admin.end();
    }
  }
}
