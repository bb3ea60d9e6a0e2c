import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSecretBox, parseSecretKey, type SecretBox } from "@directory/api";
import type { Logger } from "../logger";

export const WEBHOOK_KEY_FILE = "webhook-secret.key";

/**
 * The key that seals webhook secrets: WEBHOOK_SECRET_KEY when given (what several instances on one
 * PostgreSQL must share), else a key generated once into DATA_DIR (mode 0600), like the admin key.
 */
export function loadWebhookSecretBox(options: { dataDir: string; secretKey?: string; log: Logger }): SecretBox {
  if (options.secretKey) return createSecretBox(parseSecretKey(options.secretKey));
  const path = join(options.dataDir, WEBHOOK_KEY_FILE);
  if (!existsSync(path)) {
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(path, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    options.log.info({ path }, "generated the webhook secret sealing key (set WEBHOOK_SECRET_KEY to share one across instances)");
  }
  return createSecretBox(parseSecretKey(readFileSync(path, "utf8")));
}
