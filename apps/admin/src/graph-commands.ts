import { createReadStream, statSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { Presets, SingleBar } from "cli-progress";
import { ingestDocuments, loadContextResolver, MatcherCache, parseDocumentLine, type IncomingDocument } from "@directory/api";
import { createDatabase, migrate, type Db } from "@directory/db";
import { choreDatabaseOptions } from "./env";

/** Documents per transaction: each batch is stored and folded into the graph at once. */
const BATCH_SIZE = 500;

/** Ingests a JSONL file of documents; stops at the first invalid line, naming it (batches before it stay stored). */
export async function ingestFile(db: Db, path: string, options: { progress: boolean }) {
  const bar = options.progress
    ? new SingleBar({ format: "ingesting [{bar}] {percentage}% | {documents} documents | {duration}s" }, Presets.shades_classic)
    : null;
  const totals = { stored: 0, duplicates: 0, mentions: 0 };
  const started = performance.now();
  try {
    const resolver = await loadContextResolver(db);
    const matchers = new MatcherCache();
    const input = createReadStream(path, { encoding: "utf8" });
    bar?.start(statSync(path).size, 0, { documents: 0 });
    let batch: IncomingDocument[] = [];
    let lineNumber = 0;
    const flush = async () => {
      const result = await ingestDocuments(db, { batch, matchers });
      batch = [];
      totals.stored += result.stored;
      totals.duplicates += result.duplicates;
      totals.mentions += result.mentions;
      bar?.update(input.bytesRead, { documents: totals.stored + totals.duplicates });
    };
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      lineNumber++;
      if (line.trim() === "") continue;
      try {
        batch.push(parseDocumentLine(line, resolver));
      } catch (error) {
        throw new Error(`${path}:${lineNumber}: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (batch.length >= BATCH_SIZE) await flush();
    }
    if (batch.length > 0) await flush();
    bar?.update(statSync(path).size, { documents: totals.stored + totals.duplicates });
  } finally {
    bar?.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  return { ...totals, seconds, documentsPerSecond: Math.round((totals.stored + totals.duplicates) / Math.max(seconds, 0.001)) };
}

/** The co-citation graph, run directly on the database (DATABASE_URL, else the embedded one in DATA_DIR). */
export function registerGraphCommands(program: Command): void {
  const graph = program.command("graph").description("the co-citation knowledge graph, run directly on the database");

  graph
    .command("ingest <file>")
    .description(
      'ingest documents from a JSONL file, one object a line: {"source", "text", "fetchedAt", optional "engine", "model", "query", "city" (slug), "category" (slug), "language", "kind", "sources" (cited URLs)}; a document already stored is skipped, and the graph is updated with each batch',
    )
    .option("--no-progress", "no progress bar")
    .action(async (file: string, options: { progress: boolean }) => {
      const database = await createDatabase(choreDatabaseOptions());
      try {
        await migrate(database);
        const result = await ingestFile(database.db, file, { progress: options.progress && process.stderr.isTTY === true });
        console.log(
          `ingested ${result.stored} new documents (${result.duplicates} already stored, ${result.mentions} mentions) in ${result.seconds.toFixed(1)} s: ${result.documentsPerSecond} documents/s`,
        );
      } finally {
        await database.close();
      }
    });
}
