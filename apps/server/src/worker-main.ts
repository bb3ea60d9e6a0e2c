import { createDatabase, EnvironmentError, forChores, migrate, postgresTarget, waitForDatabase, type DatabaseOptions } from "@directory/db";
import { readWorkerConfig, type WorkerConfig } from "./config";
import { createLogger } from "./logger";
import { loadWebhookSecretBox } from "./webhooks/secret-key";
import { startWebhookWorker } from "./webhooks/worker";
import { startCitationWorker } from "./citations/citation-worker";

/**
 * `pnpm worker`: webhook delivery and citation checks alone, for deployments that run it apart from the API servers
 * (which then set WEBHOOK_WORKER=off). Any number may run against one PostgreSQL.
 */
let config: WorkerConfig;
try {
  config = readWorkerConfig();
} catch (error) {
  // A bad variable is the operator's to fix: one line naming it, not a stack.
  if (!(error instanceof EnvironmentError)) throw error;
  console.error(`webhook worker: ${error.message}`);
  process.exit(1);
}
const logger = createLogger(config.logLevel);
const databaseOptions: DatabaseOptions = config.databaseUrl
  ? { url: config.databaseUrl, timeouts: config.databaseTimeouts, transactionPooler: config.databasePooler }
  : { dataDir: `${config.dataDir}/pglite` };
const database = await createDatabase(databaseOptions);
if (config.databaseUrl) {
  await waitForDatabase(database, {
    timeoutMs: config.databaseStartupTimeoutMs,
    describeTarget: postgresTarget(config.databaseUrl),
    settingName: "DB_STARTUP_TIMEOUT_MS",
    onRetry: (retry) => logger.warn(retry, "PostgreSQL not reachable yet; retrying"),
  });
}
if (config.databasePooler) {
  // Not through a transaction pooler: its connections carry the statement timeout its connect_query
  // sets, which a migration's backfill outlasts. The primary directly, as the server migrates.
  const chores = await createDatabase(forChores(databaseOptions));
  try {
    await migrate(chores);
  } finally {
    await chores.close();
  }
} else {
  await migrate(database);
}
const worker = startWebhookWorker({
  database,
  publicBaseUrl: config.publicBaseUrl,
  secretBox: loadWebhookSecretBox({ dataDir: config.dataDir, secretKey: config.webhooks.secretKey, log: logger }),
  outbound: config.webhooks.outbound,
  settings: config.webhooks.delivery,
  logger,
});
const citationWorker = startCitationWorker({ db: database.db, settings: config.citations, logger });
logger.info({ driver: database.driver }, "webhook worker running");

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    logger.info({ signal }, "webhook worker stopping");
    void Promise.all([worker.stop(), citationWorker.stop()])
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
