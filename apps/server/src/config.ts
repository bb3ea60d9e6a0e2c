/** Everything the server reads from the environment, read once, with the defaults a newcomer needs. */
export interface ServerConfig {
  port: number;
  host: string;
  /** Origin for public URLs in responses; defaults to the server's own address. */
  publicBaseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminApiKey: string | undefined;
  /** Seed the demo world when the database is empty (DEMO_SEED=off in production). */
  demoSeed: boolean;
  logLevel: string;
  bodyLimitBytes: number;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer 0-65535, got "${env.PORT}"`);
  const host = env.HOST ?? "0.0.0.0";
  return {
    port,
    host,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    dataDir: env.DATA_DIR ?? "./.data",
    databaseUrl: env.DATABASE_URL || undefined,
    adminApiKey: env.ADMIN_API_KEY || undefined,
    demoSeed: !["off", "false", "0"].includes((env.DEMO_SEED ?? "on").toLowerCase()),
    logLevel: env.LOG_LEVEL ?? "info",
    bodyLimitBytes: Number(env.BODY_LIMIT_BYTES ?? 100_000),
  };
}
