import { DomainError } from "../../errors";

/** How many partner exports run at once, and how long and how slowly one may hold its slot. */
export interface FeedExportLimits {
  /** Exports at once in this process, all partners together: each holds a database connection and a snapshot. */
  slots: number;
  /** An export still running this long after it started is cut; 0: no limit. */
  maxDurationMs: number;
  /** A reader taking fewer bytes of NDJSON (before any gzip) than this a second, averaged over each rate window, is cut; 0: no minimum. */
  minBytesPerSecond: number;
  /** The windows the read rate is averaged over, one after another from the export's start. */
  rateWindowMs: number;
}

/**
 * A slot lasts at most half an hour and needs 64 KiB/s over every 30 s: a partner reading at that
 * floor still takes the whole directory in minutes, and a reader that stops is cut within two
 * windows (the first may go into the sockets' buffers).
 */
export const DEFAULT_FEED_EXPORT_LIMITS: FeedExportLimits = {
  slots: 4,
  maxDurationMs: 30 * 60_000,
  minBytesPerSecond: 64 * 1024,
  rateWindowMs: 30_000,
};

/** What a refused export is told to wait: a disconnected client's export ends within seconds, a stalled one within two rate windows. */
export const EXPORT_RETRY_AFTER_SECONDS = 10;

/**
 * The export slots of one process, shared fairly: one per partner at a time, so `slots` partners
 * are served at once and no partner holds two. A partner is its API key (keys belong to no
 * account yet). The bounds (FeedExportLimits) keep any holder from keeping its slot: too slow a
 * reader or too long an export is cut (export-bounds.ts), and the slot is freed with the stream.
 */
export class FeedExportSlots {
  readonly limits: FeedExportLimits;
  private readonly holders = new Set<string>();

  constructor(limits: Partial<FeedExportLimits> = {}) {
    this.limits = { ...DEFAULT_FEED_EXPORT_LIMITS, ...limits };
  }

  /** Takes a slot for `partner` and returns its release; RATE_LIMITED when the partner holds one already or all are taken. */
  claim(partner: string): () => void {
    if (this.holders.has(partner)) {
      throw new DomainError("RATE_LIMITED", `This key already has an export running: one at a time per key; retry in ${EXPORT_RETRY_AFTER_SECONDS} seconds`);
    }
    if (this.holders.size >= this.limits.slots) {
      throw new DomainError("RATE_LIMITED", `${this.limits.slots} exports are running; retry in ${EXPORT_RETRY_AFTER_SECONDS} seconds`);
    }
    this.holders.add(partner);
    return () => this.holders.delete(partner);
  }
}
