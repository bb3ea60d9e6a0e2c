import { existsSync } from "node:fs";
import { join } from "node:path";
import type { PGlite, Transaction } from "@electric-sql/pglite";

/**
 * PGlite keeps answering from memory after its data folder is removed: a write is acknowledged and
 * lost at the next start. So every statement and transaction first checks that the folder still
 * holds its PG_VERSION (one stat, a few microseconds), and a transaction checks again before it
 * commits; without it, the database fails as unavailable (DATA_DIR_GONE: 503 on every door).
 */
export class DataDirGoneError extends Error {
  readonly code = "DATA_DIR_GONE";
  constructor(dataDir: string) {
    super(`The embedded database's folder ${dataDir} is gone; nothing can be stored until the server restarts on a data folder`);
  }
}

export function guardDataDir(client: PGlite, dataDir: string): void {
  const marker = join(dataDir, "PG_VERSION");
  const requireFolder = () => {
    if (!existsSync(marker)) throw new DataDirGoneError(dataDir);
  };
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  // Own properties shadow the prototype's, so drizzle and the migrator call these.
  Object.assign(client, {
    query: (...args: Parameters<PGlite["query"]>) => {
      requireFolder();
      return query(...args);
    },
    exec: (...args: Parameters<PGlite["exec"]>) => {
      requireFolder();
      return exec(...args);
    },
    transaction: <T>(callback: (tx: Transaction) => Promise<T>) => {
      requireFolder();
      return transaction(async (tx) => {
        const result = await callback(tx);
        // A throw here rolls the transaction back instead of committing to memory only.
        requireFolder();
        return result;
      });
    },
  });
}
