import type { Server } from "node:http";
import type { DestinationStream } from "pino";
import { createApiKey, type RateLimitSettings } from "@directory/api";
import { createTestDatabase, type TestDatabase, type TestDatabaseOptions } from "@directory/db/testing";
import { createApp } from "./app";
import { answerClientErrorsWithJson } from "./request-hygiene";
import { createLogger } from "./logger";

export interface TestServer {
  url: string;
  database: TestDatabase;
  /** A fresh admin key, created directly in the test database. */
  adminKey: string;
  close(): Promise<void>;
}

/** A real server on 127.0.0.1 (random port) over a real test database. */
export interface TestServerOptions extends TestDatabaseOptions {
  bodyLimitBytes?: number;
  rateLimits?: Partial<RateLimitSettings>;
  trustProxyHops?: number;
  /** Where log lines go (default: none unless TEST_LOG_LEVEL is set), for tests that read the log. */
  logDestination?: DestinationStream;
  /** Serve an existing database instead of creating one (several instances on one database). */
  database?: TestDatabase;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownsDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase(options));
  const { key: adminKey } = await createApiKey(database.db, { kind: "admin", label: "test" });
  const logger = options.logDestination ? createLogger("info", options.logDestination) : createLogger(process.env.TEST_LOG_LEVEL ?? "silent");
  let url = "";
  const app = createApp({
    database,
    publicBaseUrl: "http://directory.test",
    logger,
    bodyLimitBytes: options.bodyLimitBytes,
    rateLimits: options.rateLimits,
    trustProxyHops: options.trustProxyHops,
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  answerClientErrorsWithJson(server);
  const address = server.address();
  if (typeof address === "object" && address) url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    database,
    adminKey,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (ownsDatabase) await database.destroy();
    },
  };
}

/** Response bodies in tests are asserted field by field; `any` keeps those assertions short. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonBody = any;

/** GET a path and parse JSON, keeping status and headers for assertions. */
export async function getJson(baseUrl: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, { headers });
  const text = await response.text();
  let body: JsonBody;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}
