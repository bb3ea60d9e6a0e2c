import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApiKey, hasActiveApiKey, parseApiKey, provisionApiKey } from "@directory/api";
import type { Db } from "@directory/db";
import type { Logger } from "./logger";

export const ADMIN_KEY_FILE = "admin.key";

/**
 * Makes sure an admin can reach the service: ADMIN_API_KEY is provisioned as given; otherwise the
 * first start creates an admin key and writes it to DATA_DIR/admin.key (0600), the only copy.
 */
export async function ensureAdminKey(db: Db, options: { dataDir: string; adminApiKey?: string; log: Logger }): Promise<void> {
  const { dataDir, adminApiKey, log } = options;
  if (adminApiKey) {
    if (parseApiKey(adminApiKey) !== "admin") throw new Error("ADMIN_API_KEY is not a well-formed admin key (bdk_adm_...)");
    await provisionApiKey(db, { key: adminApiKey, label: "ADMIN_API_KEY" });
    log.info("admin key provisioned from ADMIN_API_KEY");
    return;
  }
  const keyPath = join(dataDir, ADMIN_KEY_FILE);
  if (await hasActiveApiKey(db, { kind: "admin" })) {
    if (existsSync(keyPath)) log.info({ path: keyPath }, "admin key file in place");
    return;
  }
  const { key } = await createApiKey(db, { kind: "admin", label: "bootstrap" });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(keyPath, `${key}\n`, { mode: 0o600 });
  log.info({ path: keyPath }, "created the first admin key; it is in this file (mode 0600) and nowhere else");
}
