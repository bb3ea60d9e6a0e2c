import { createDatabase, type Database, type DatabaseTimeouts, type TransactionPooler } from "../client";
import { DEFAULT_READ_REPLICA_SETTINGS, ReadReplicas, replicaLabel, type ReadReplicaSettings } from "./read-replicas";

export interface ReadReplicaOptions extends Partial<ReadReplicaSettings> {
  /** DATABASE_REPLICA_URLS: each a streaming replica of the primary. */
  urls: string[];
  timeouts?: Partial<DatabaseTimeouts>;
  /**
   * DATABASE_POOLER=transaction: the replica URLs may lead through the same pooler (a database entry
   * per replica), so they are opened as pooled connections too. Replicas take no LISTEN and no chores.
   */
  transactionPooler?: TransactionPooler;
}

/** Connects to each replica and starts watching them; null when none is configured (reads stay on the primary). */
export async function openReadReplicas(primary: Database, options: ReadReplicaOptions): Promise<ReadReplicas | null> {
  if (options.urls.length === 0) return null;
  if (primary.driver !== "postgres") throw new Error("DATABASE_REPLICA_URLS needs DATABASE_URL: the embedded database has no replicas");
  const replicas = await Promise.all(
    options.urls.map(async (url) => ({
      label: replicaLabel(url),
      database: await createDatabase({ url, timeouts: options.timeouts, transactionPooler: options.transactionPooler }),
    })),
  );
  const readReplicas = new ReadReplicas(primary, replicas, {
    maxLagMs: options.maxLagMs ?? DEFAULT_READ_REPLICA_SETTINGS.maxLagMs,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULT_READ_REPLICA_SETTINGS.pollIntervalMs,
  });
  await readReplicas.start();
  return readReplicas;
}
