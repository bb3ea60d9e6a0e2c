import { sql } from "drizzle-orm";
import type { Command } from "commander";
import { SingleBar, Presets } from "cli-progress";
import { backfillFeedDocuments, isDatabaseEmpty, seedDemoWorld } from "@directory/api";
import { createDatabase, migrate } from "@directory/db";
import { choreDatabaseOptions } from "./env";

/** Database chores run directly on the database (DATABASE_URL, else the embedded one in DATA_DIR). */
export function registerDbCommands(program: Command): void {
  const db = program.command("db").description("database chores, run directly on the database");

  db.command("migrate")
    .description("apply the committed migrations")
    .action(async () => {
      const database = await createDatabase(choreDatabaseOptions());
      try {
        await migrate(database);
        // Migration 0018's backfill: the partner feed's stored documents are built by the TypeScript builder.
        const documents = await backfillFeedDocuments(database.db);
        console.log(`migrated (${database.driver})${documents > 0 ? `; ${documents} partner-feed documents stored` : ""}`);
      } finally {
        await database.close();
      }
    });

  db.command("seed")
    .description("seed the deterministic demo world into an empty database")
    .option("--businesses <n>", "number of businesses", "10000")
    .option("--seed <n>", "random seed (same seed, same data)", "42")
    .action(async (options: { businesses: string; seed: string }) => {
      const businesses = Number(options.businesses);
      const seed = Number(options.seed);
      if (!Number.isInteger(businesses) || businesses < 1 || businesses > 5_000_000) throw new Error("--businesses must be an integer 1..5000000");
      if (!Number.isInteger(seed)) throw new Error("--seed must be an integer");
      const database = await createDatabase(choreDatabaseOptions());
      try {
        await migrate(database);
        if (!(await isDatabaseEmpty(database.db))) throw new Error("the database already holds data; seed only an empty database");
        // Progress goes to stderr (stdout stays for the result); without a terminal, a line every 2 s.
        const bar = new SingleBar(
          {
            format: "seeding [{bar}] {percentage}% | {value}/{total} businesses | {duration}s",
            stream: process.stderr,
            noTTYOutput: true,
            notTTYSchedule: 2000,
          },
          Presets.shades_classic,
        );
        bar.start(businesses, 0);
        const started = performance.now();
        const result = await seedDemoWorld(database.db, { businesses, seed, onProgress: (done) => bar.update(done) });
        bar.stop();
        // Marks the loaded pages all-visible: counts and index-only scans then skip the heap.
        await database.db.execute(sql`vacuum`);
        console.log(`seeded ${JSON.stringify(result)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      } finally {
        await database.close();
      }
    });
}
