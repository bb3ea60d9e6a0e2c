import { readFileSync } from "node:fs";
import { join } from "node:path";
import { adminEnvironment, type AdminEnvironment } from "./env";

/** --key, else DIRECTORY_ADMIN_KEY, else the admin.key file the server wrote on first start. */
export function resolveAdminKey(explicit: string | undefined, env: Pick<AdminEnvironment, "DIRECTORY_ADMIN_KEY" | "DATA_DIR"> = adminEnvironment()): string {
  if (explicit) return explicit;
  if (env.DIRECTORY_ADMIN_KEY) return env.DIRECTORY_ADMIN_KEY;
  const path = join(env.DATA_DIR, "admin.key");
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    throw new Error(`No admin key: pass --key, set DIRECTORY_ADMIN_KEY, or start the server once so it writes ${path}`);
  }
}
