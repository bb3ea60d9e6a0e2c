import { Counter, Gauge, type Registry } from "prom-client";
import type { ReadReplicas, ReplicaState } from "@directory/db";

const STATES: ReplicaState[] = ["ok", "lagging", "down"];

/**
 * Each read replica's lag and state as last polled, and where replica-routed reads went. Read at
 * scrape time from ReadReplicas, which polls on its own: a scrape never waits on a replica.
 */
export function registerReplicaMetrics(registry: Registry, readReplicas: ReadReplicas): void {
  new Gauge({
    name: "directory_replica_lag_seconds",
    help: "How long ago the primary wrote the oldest change this replica has not replayed (absent while it is down)",
    labelNames: ["replica"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { replica, lagMs } of readReplicas.statuses()) if (lagMs !== null) this.set({ replica }, lagMs / 1000);
    },
  });
  new Gauge({
    name: "directory_replica_state",
    help: "1 for each replica's current state (ok serves reads; lagging and down are skipped)",
    labelNames: ["replica", "state"],
    registers: [registry],
    collect() {
      for (const status of readReplicas.statuses()) for (const state of STATES) this.set({ replica: status.replica, state }, status.state === state ? 1 : 0);
    },
  });
  new Counter({
    name: "directory_replica_routed_reads_total",
    help: "Reads that may be a little behind, by the server that served them (a replica's label, or primary)",
    labelNames: ["server"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [server, reads] of readReplicas.readsServed()) this.inc({ server }, reads);
    },
  });
}
