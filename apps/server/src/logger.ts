import { pino, type Logger } from "pino";

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: "directory" },
    // Keys and tokens never reach the log.
    redact: { paths: ["req.headers.authorization", "req.headers.cookie"], censor: "[redacted]" },
  });
}

export type { Logger };
