/** Every demo timestamp derives from this instant, never from the clock, so reruns are identical. */
export const DEMO_EPOCH = new Date("2026-01-01T00:00:00Z");

export const DAY_SECONDS = 86_400;

/** Far enough ahead that a "normal" paid plan never expires during the demo's lifetime. */
export const FAR_FUTURE = new Date("2099-01-01T00:00:00Z");
/** Expired subscriptions end during 2025, before every demo business's last update. */
export const EXPIRED_WINDOW_START = new Date("2025-01-01T00:00:00Z");

export function addSeconds(base: Date, seconds: number): Date {
  return new Date(base.getTime() + seconds * 1000);
}
