import { createServer, type RequestListener, type Server } from "node:http";
import { backfillFeedDocuments, createMailer, createStripeProvider, isDatabaseEmpty, seedDemoWorld } from "@directory/api";
import { createDatabase, forChores, migrate, openReadReplicas, postgresTarget, waitForDatabase, type Database } from "@directory/db";
import { ensureAdminKey } from "./admin-key";
import { createApp } from "./app";
import { createMetrics } from "./metrics";
import { startFeedSweeper } from "./feed-sweeper";
import { startHousekeeping } from "./housekeeping";
import { loadWebhookSecretBox } from "./webhooks/secret-key";
import { startWebhookWorker } from "./webhooks/worker";
import { startCitationWorker } from "./citations/citation-worker";
import { answerClientErrorsWithJson } from "./request-hygiene";
import type { ConnectionTimeouts, ServerConfig } from "./config";
import { createLogger, type Logger } from "./logger";

export interface RunningServer {
  server: Server;
  database: Database;
  url: string;
  logger: Logger;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 10_000;
/** How often Node looks for requests past their headers or request deadline (its default, 30 s, would let them run that much over). */
const DEADLINE_CHECK_INTERVAL_MS = 1_000;

/**
 * An HTTP server that closes connections which send nothing, send a request too slowly or sit idle
 * between requests. Node applies no deadline to a connection that never sends a byte, so the
 * socket timeout covers it; it is switched off while a response is written, so a quiet stream (the
 * legacy MCP SSE stream, a long partner feed) is never cut. requestTimeout bounds receiving the
 * request only, not sending the response.
 */
export async function listenHttp(app: RequestListener, where: { port: number; host: string }, timeouts: ConnectionTimeouts): Promise<Server> {
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: DEADLINE_CHECK_INTERVAL_MS,
    },
    app,
  );
  server.timeout = timeouts.silentMs;
  // Node sets the socket timeout back to server.timeout when a request arrives; a response in progress needs none.
  server.on("request", (_req, res) => res.setTimeout(0));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(where.port, where.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  answerClientErrorsWithJson(server);
  return server;
}

/**
 * Migrates, seeds an empty database and provisions the admin key, then returns the service's
 * connection. On PostgreSQL that work runs on its own connection without the statement timeout:
 * a migration's backfill of a large table outlasts what a request's query may take. Behind a
 * transaction pooler, that connection is the direct one (forChores).
 */
async function openPreparedDatabase(config: ServerConfig, logger: Logger, startedAt: number): Promise<Database> {
  const prepare = async (chores: Database) => {
    await migrate(chores);
    // Migration 0018's backfill: the stored documents are built by the TypeScript builder, so they are written here (idempotent).
    await backfillFeedDocuments(chores.db);
    if (config.demoSeed && (await isDatabaseEmpty(chores.db))) {
      logger.info("empty database: seeding the demo world");
      const seeded = await seedDemoWorld(chores.db);
      logger.info({ ...seeded, ms: Math.round(performance.now() - startedAt) }, "demo world seeded");
    }
    await ensureAdminKey(chores.db, { dataDir: config.dataDir, adminApiKey: config.adminApiKey, log: logger });
  };
  if (!config.databaseUrl) {
    const embedded = await createDatabase({ dataDir: `${config.dataDir}/pglite` });
    await prepare(embedded).catch(async (error: unknown) => {
      await embedded.close();
      throw error;
    });
    return embedded;
  }
  const chores = await createDatabase(forChores({ url: config.databaseUrl, timeouts: config.databaseTimeouts, transactionPooler: config.databasePooler }));
  try {
    await waitForDatabase(chores, {
      timeoutMs: config.databaseStartupTimeoutMs,
      describeTarget: postgresTarget(config.databaseUrl),
      settingName: "DB_STARTUP_TIMEOUT_MS",
      onRetry: (retry) => logger.warn(retry, "PostgreSQL not reachable yet; retrying"),
    });
    await prepare(chores);
  } finally {
    await chores.close();
  }
  return createDatabase({ url: config.databaseUrl, timeouts: config.databaseTimeouts, transactionPooler: config.databasePooler });
}

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const logger = createLogger(config.logLevel);
  const startedAt = performance.now();
  const database = await openPreparedDatabase(config, logger, startedAt);
  const readReplicas = await openReadReplicas(database, {
    ...config.readReplicas,
    timeouts: config.databaseTimeouts,
    transactionPooler: config.databasePooler,
  });
  if (readReplicas) logger.info({ replicas: readReplicas.statuses() }, "read replicas serve the reads that may be a little behind");

  const webhookConfig = {
    secretBox: loadWebhookSecretBox({ dataDir: config.dataDir, secretKey: config.webhooks.secretKey, log: logger }),
    outbound: config.webhooks.outbound,
  };
  const metrics = createMetrics({ database, readReplicas });
  const mailer = createMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    dataDir: config.dataDir,
    log: (fields, message) => logger.info(fields, message),
  });
  logger.info({ mail: mailer.describe }, config.mail.smtpUrl ? "mail goes out through SMTP" : "SMTP_URL is unset: mails are written as files");
  const paymentProvider = config.billing.stripe ? createStripeProvider(config.billing.stripe) : undefined;
  const app = createApp({
    mailer,
    paymentProvider,
    siteOutbound: config.siteOutbound,
    citationEngines: config.citations.engines,
    database,
    readReplicas,
    metrics,
    metricsToken: config.metricsToken,
    publicBaseUrl: config.publicBaseUrl,
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    trustProxyHops: config.trustProxyHops,
    rateLimits: config.rateLimits,
    allowedHosts: config.allowedHosts,
    webhookConfig,
    mcpSse: config.mcpSse,
    partnerExports: config.partnerExports,
  });
  const server = await listenHttp(app, config, config.connectionTimeouts);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port}`;
  logger.info({ url, driver: database.driver, ms: Math.round(performance.now() - startedAt) }, "directory service listening");

  const stopHousekeeping = startHousekeeping(database.db, logger);
  const stopFeedSweeper = startFeedSweeper(database.db, logger);
  const worker = config.webhooks.workerInServer
    ? startWebhookWorker({
        database,
        publicBaseUrl: config.publicBaseUrl,
        ...webhookConfig,
        settings: config.webhooks.delivery,
        logger,
        onAttempt: metrics.webhookAttempt,
      })
    : null;
  const citationWorker = config.webhooks.workerInServer ? startCitationWorker({ db: database.db, settings: config.citations, logger }) : null;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      stopHousekeeping();
      stopFeedSweeper();
      await worker?.stop();
      await citationWorker?.stop();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      mailer.close();
      await readReplicas?.close();
      await database.close();
      logger.info("directory service stopped");
    })());
  return { server, database, url, logger, close };
}
