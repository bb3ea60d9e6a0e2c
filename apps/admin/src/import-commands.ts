import type { Command } from "commander";
import { SingleBar, Presets } from "cli-progress";
import { importFeed, IMPORT_SOURCE_PATTERN, keepImportedSnapshot, osmRegistryFeed, type ImportSummary } from "@directory/api";
import { createDatabase, migrate } from "@directory/db";
import { adminEnvironment, choreDatabaseOptions } from "./env";
import { importConcurrency, registerOsmChangesCommand } from "./osm-changes-command";

interface ImportOsmOptions {
  source: string;
  dryRun?: boolean;
  allowRemovals?: boolean;
  json?: boolean;
}

/** Registry imports, run directly on the configured database like `db seed` (servers on PostgreSQL keep serving). */
export function registerImportCommands(program: Command): void {
  const imports = program.command("import").description("load real businesses from open data, directly into the database");

  imports
    .command("osm <file>")
    .description("import named businesses of an OpenStreetMap extract (.osm.pbf) as unclaimed, registry-sourced listings; a re-import applies the difference")
    .option("--source <name>", "source name of the claims (lower-case letters, digits, dots, dashes; at most 40)", "openstreetmap")
    .option("--dry-run", "read the file and print what would change, writing nothing")
    .option("--allow-removals", "let the import take out of service more than 20% of the source's businesses inside the file's area (refused otherwise)")
    .option("--json", "print the summary as one JSON object on stdout")
    .action(async (file: string, options: ImportOsmOptions) => {
      if (!IMPORT_SOURCE_PATTERN.test(options.source)) {
        throw new Error(`--source "${options.source}" is not a source name: lower-case letters, digits, dots and dashes, at most 40 characters`);
      }
      const log = (line: string) => {
        if (!options.json) console.error(line);
      };
      const started = performance.now();
      // The database first: when a server holds the embedded one, say so before reading the file.
      const databaseOptions = choreDatabaseOptions();
      const database = await createDatabase(databaseOptions);
      try {
        log(`reading ${file} ...`);
        // The whole file is read once first (a bad one fails here, before anything is written);
        // then its businesses are written as they are read again, so memory stays flat.
        const feed = osmRegistryFeed(file, { source: options.source });
        const survey = await feed.survey();
        log(`read ${survey.elements} elements: ${survey.candidates} business candidates in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        await migrate(database);
        const bar = new SingleBar(
          { format: "importing [{bar}] {percentage}% | {value}/{total} businesses", stream: process.stderr, noTTYOutput: true, notTTYSchedule: 2000 },
          Presets.shades_classic,
        );
        if (!options.json) bar.start(survey.candidates, 0);
        const summary = await importFeed(database.db, feed, {
          source: options.source,
          dryRun: options.dryRun,
          allowRemovals: options.allowRemovals,
          concurrency: importConcurrency(databaseOptions),
          onProgress: (done) => {
            if (!options.json) bar.update(done);
          },
        });
        if (!options.json) bar.stop();
        // The extract becomes the snapshot change files are applied to (import osm-changes).
        if (!options.dryRun) await keepImportedSnapshot(database.db, options.source, file, adminEnvironment().DATA_DIR, survey);
        const seconds = (performance.now() - started) / 1000;
        console.log(options.json ? JSON.stringify(summary) : describeSummary(summary, seconds));
      } finally {
        await database.close();
      }
    });

  registerOsmChangesCommand(imports);
}

function describeCounts(counts: Record<string, number>, limit = 10): string {
  const entries = Object.entries(counts).sort(([, a], [, b]) => b - a);
  if (entries.length === 0) return "none";
  const shown = entries.slice(0, limit).map(([key, count]) => `${key} (${count})`);
  return entries.length > limit ? `${shown.join(", ")}, and ${entries.length - limit} more` : shown.join(", ");
}

function describeSummary(summary: ImportSummary, seconds: number): string {
  return [
    `${summary.dryRun ? "dry run, nothing written: " : ""}${summary.source}: ${summary.records} businesses from ${summary.elements} elements in ${seconds.toFixed(1)} s`,
    `  added ${summary.added}, changed ${summary.changed}, unchanged ${summary.unchanged}, removed ${summary.removed}, reactivated ${summary.reactivated}`,
    `  skipped: ${describeCounts(summary.skipped)}`,
    `  unmapped tags: ${describeCounts(summary.unmappedTags)}`,
    `  opening hours kept as text only: ${describeCounts(summary.unparsedOpeningHours, 5)}`,
  ].join("\n");
}
