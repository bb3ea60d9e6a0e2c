import type { Command } from "commander";
import { applyOsmChanges, type OsmChangesSummary } from "@directory/api";
import { createDatabase, migrate, type DatabaseOptions } from "@directory/db";
import { adminEnvironment, choreDatabaseOptions } from "./env";

/** Batches in flight on PostgreSQL: the server works one connection per core, and the CLI prepares the next batch meanwhile; the embedded database takes one. */
export function importConcurrency(databaseOptions: DatabaseOptions): number {
  return "url" in databaseOptions ? 2 : 1;
}

interface OsmChangesCommandOptions {
  source: string;
  force?: boolean;
  allowRemovals?: boolean;
  json?: boolean;
}

/** `import osm-changes <files...>`: OpenStreetMap change files applied to the source's snapshot. */
export function registerOsmChangesCommand(imports: Command): void {
  imports
    .command("osm-changes <files...>")
    .description(
      "apply OpenStreetMap change files (.osc or .osc.gz, in the order given) to the source's last imported extract; a file applied before is skipped, an older one refused",
    )
    .option("--source <name>", "source name the extract was imported as", "openstreetmap")
    .option("--force", "apply a file even when it is older than the newest change already applied")
    .option("--allow-removals", "let the files take out of service more than 20% of the source's businesses inside the extract's area (refused otherwise)")
    .option("--json", "print the summary as one JSON object on stdout")
    .action(async (files: string[], options: OsmChangesCommandOptions) => {
      const started = performance.now();
      const databaseOptions = choreDatabaseOptions();
      const database = await createDatabase(databaseOptions);
      try {
        await migrate(database);
        const summary = await applyOsmChanges(database.db, {
          source: options.source,
          files,
          dataDir: adminEnvironment().DATA_DIR,
          force: options.force,
          allowRemovals: options.allowRemovals,
          concurrency: importConcurrency(databaseOptions),
        });
        const seconds = (performance.now() - started) / 1000;
        console.log(options.json ? JSON.stringify(summary) : describeChanges(summary, seconds));
      } finally {
        await database.close();
      }
    });
}

function describeChanges(summary: OsmChangesSummary, seconds: number): string {
  const files = summary.files.map(
    (file) =>
      `  ${file.file}: ${file.status} (${file.creates} created, ${file.modifies} modified, ${file.deletes} deleted elements; newest change ${file.newestChangeAt ?? "undated"})`,
  );
  return [
    `${summary.source}: ${summary.files.length} change file(s) in ${seconds.toFixed(1)} s`,
    ...files,
    `  businesses created ${summary.created}, changed ${summary.changed}, removed ${summary.removed}; element changes ignored (no business) ${summary.ignored}`,
    `  newest change applied: ${summary.newestChangeAt ?? "none dated"}`,
  ].join("\n");
}
