import type { Command } from "commander";
import { citationSettingsOf, citationStatus, runCitationCheck, type CitationRunRequest } from "@directory/api";
import { createDatabase, migrate, type Db } from "@directory/db";
import { adminEnvironment, choreDatabaseOptions } from "./env";

function describeRun(result: Awaited<ReturnType<typeof runCitationCheck>>): string {
  const lines = result.checks.map((check) => {
    const head = `${check.engine}:${check.model} "${check.query}": ${check.status} after ${check.attempts} attempt(s)`;
    if (check.status === "done")
      return `${head}, ${check.mentions.length} businesses named${check.mentions.length ? `: ${check.mentions.map((m) => `${m.position}. ${m.name}`).join(", ")}` : ""}`;
    const retry = check.nextAttemptAt ? `; next attempt ${check.nextAttemptAt}` : "";
    return `${head}${check.failureReason ? ` (${check.failureReason})` : ""}${retry}`;
  });
  if (result.budgetSpent) lines.push("the day's budget (CITATION_CHECKS_PER_DAY) is spent: checks left queued");
  if (result.engineBusy) lines.push("the engine's calls are all in flight in other workers (CITATION_CONCURRENCY): checks left queued for them");
  return lines.join("\n");
}

async function withDatabase<T>(action: (db: Db) => Promise<T>): Promise<T> {
  const database = await createDatabase(choreDatabaseOptions());
  try {
    await migrate(database);
    return await action(database.db);
  } finally {
    await database.close();
  }
}

/** Citation checks, run directly on the database like `graph ingest` (DATABASE_URL, else the embedded one in DATA_DIR). */
export function registerCitationCommands(program: Command): void {
  const citations = program.command("citations").description("citation checks: AI engines asked about a category in a city (docs/citation-checks.md)");

  citations
    .command("run")
    .description("ask the configured engines (CITATION_ENGINES) today's question for a category in a city now, and store the answers")
    .requiredOption("--category <slug>", "category slug")
    .requiredOption("--city <slug>", "city slug")
    .option("--engine <name>", "only this engine (its name, or name:model)")
    .option("--json", "print the result as one JSON object on stdout")
    .action(async (options: CitationRunRequest & { json?: boolean }) => {
      const settings = citationSettingsOf(adminEnvironment());
      const result = await withDatabase((db) => runCitationCheck(db, settings, options));
      console.log(options.json ? JSON.stringify(result) : describeRun(result));
      if (result.checks.some((check) => check.status === "failed")) process.exitCode = 1;
    });

  citations
    .command("status")
    .description("the check queue, the day's engine calls against CITATION_CHECKS_PER_DAY and the last failures")
    .option("--json", "print the status as one JSON object on stdout")
    .action(async (options: { json?: boolean }) => {
      const settings = citationSettingsOf(adminEnvironment());
      const status = await withDatabase((db) => citationStatus(db, { checksPerDay: settings.checksPerDay, engines: settings.engines, now: new Date() }));
      if (options.json) {
        console.log(JSON.stringify(status));
        return;
      }
      const queue = Object.entries(status.queue)
        .map(([state, count]) => `${count} ${state}`)
        .join(", ");
      console.log(`engines: ${status.engines.length > 0 ? status.engines.join(", ") : "none configured (CITATION_ENGINES): no check runs"}`);
      console.log(`checks: ${queue}`);
      console.log(`engine calls on ${status.today.day}: ${status.today.calls} of ${status.today.budget}`);
      for (const failure of status.lastFailures) {
        console.log(`failed ${failure.failedAt} ${failure.engine}:${failure.model} "${failure.query}" (attempt ${failure.attempts}): ${failure.failureReason}`);
      }
    });
}
