/**
 * Every demo timestamp derives from this instant, never from the clock, so reruns are identical.
 * Times are epoch milliseconds while generating (see rows.ts).
 */
export const DEMO_EPOCH_MS = Date.UTC(2026, 0, 1);

export const DAY_SECONDS = 86_400;

/** Far enough ahead that a "normal" paid plan never expires during the demo's lifetime. */
export const FAR_FUTURE_MS = Date.UTC(2099, 0, 1);
/** Expired subscriptions end during 2025, before every demo business was last updated. */
export const EXPIRED_WINDOW_START_MS = Date.UTC(2025, 0, 1);

export function addSeconds(epochMs: number, seconds: number): number {
  return epochMs + seconds * 1000;
}
