import type { Server } from "node:http";
import { createDatabase, isDatabaseEmpty, migrate, seedDemoWorld, type Database } from "@directory/db";
import { ensureAdminKey } from "./admin-key";
import { createApp } from "./app";
import { startHousekeeping } from "./housekeeping";
import { loadWebhookSecretBox } from "./webhooks/secret-key";
import { startWebhookWorker } from "./webhooks/worker";
import { answerClientErrorsWithJson } from "./request-hygiene";
import type { ServerConfig } from "./config";
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

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const logger = createLogger(config.logLevel);
  const startedAt = performance.now();
  const database = await createDatabase(config.databaseUrl ? { url: config.databaseUrl, timeouts: config.databaseTimeouts } : { dataDir: `${config.dataDir}/pglite` });
  try {
    await migrate(database);
    if (config.demoSeed && (await isDatabaseEmpty(database.db))) {
      logger.info("empty database: seeding the demo world");
      const seeded = await seedDemoWorld(database.db);
      logger.info({ ...seeded, ms: Math.round(performance.now() - startedAt) }, "demo world seeded");
    }
    await ensureAdminKey(database.db, { dataDir: config.dataDir, adminApiKey: config.adminApiKey, log: logger });
  } catch (error) {
    await database.close();
    throw error;
  }

  const webhookConfig = { secretBox: loadWebhookSecretBox({ dataDir: config.dataDir, secretKey: config.webhooks.secretKey, log: logger }), outbound: config.webhooks.outbound };
  const app = createApp({
    database,
    publicBaseUrl: config.publicBaseUrl,
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    trustProxyHops: config.trustProxyHops,
    rateLimits: config.rateLimits,
    allowedHosts: config.allowedHosts,
    webhookConfig,
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.port, config.host, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  answerClientErrorsWithJson(server);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port}`;
  logger.info({ url, driver: database.driver, ms: Math.round(performance.now() - startedAt) }, "directory service listening");

  const stopHousekeeping = startHousekeeping(database.db, logger);
  const worker = config.webhooks.workerInServer
    ? startWebhookWorker({ database, publicBaseUrl: config.publicBaseUrl, ...webhookConfig, settings: config.webhooks.delivery, logger })
    : null;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      stopHousekeeping();
      await worker?.stop();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      await database.close();
      logger.info("directory service stopped");
    })());
  return { server, database, url, logger, close };
}
