import type { OpenApiMeta } from "trpc-to-openapi";

/**
 * Who may call a procedure and which limit counts it; every procedure gets exactly one, from the
 * builder it is made with (builders.ts), so REST, tRPC, MCP, pages and GraphQL count and refuse alike.
 * - open: anonymous allowed, a per-minute abuse limit per address (assistant-plugin, agent.json)
 * - anonymous-daily: anonymous allowed at the spec's daily limit per address (v2 and its twins)
 * - lead-submission: anonymous-daily plus tighter lead limits per address, key and business
 * - correction-submission: anonymous-daily plus hourly correction limits per address and per key
 * - key, partner, admin: that kind of key required
 * - business: a business-scoped key (it decides the business), or a signed-in manager of the
 *   business its `slug` names (an owner, or an agency member with access)
 * - session: a signed-in person's session cookie (their own account only), per-address minute limit;
 *   mutations need the service's Origin and the session's CSRF token
 * - sign-in: anonymous, the sign-in mail limits per address and per client
 * Every keyed call that is served, in any class, counts against the key's monthly quota (admin keys
 * excepted); a refused or failed one gives its count back.
 */
export type AccessClass =
  "open" | "anonymous-daily" | "lead-submission" | "correction-submission" | "key" | "partner" | "business" | "admin" | "session" | "sign-in";

/**
 * Who may keep a copy of a successful anonymous read: "public" (any cache, for a minute; any origin
 * may read it over REST) or "private" (no one). Keyed callers' answers are private whatever it says.
 */
export type CacheScope = "public" | "private";

export interface DirectoryMeta extends OpenApiMeta {
  access?: AccessClass;
  /** The HTTP status of success when it is not 200 (201 for a creation); documented and sent. */
  successStatus?: number;
  /**
   * Set by the builder from the access class; a procedure whose answer depends on its input says so
   * with a function of the input as sent, before parsing (history mode is private).
   */
  cache?: CacheScope | ((input: unknown) => CacheScope);
  /**
   * A keyed read a browser page on another origin may call over REST, without credentials (the key
   * is a header the page sends itself, never a cookie): the partner feed. Public reads always may.
   */
  crossOriginRead?: boolean;
  /** The success body's media type when it is not JSON: the partner export's NDJSON, written by apps/server's streaming adapter. */
  successContentType?: string;
  /** A page whose 200 names the next page in a Link header (rel="next") when there is one: the partner feed's pages, written by apps/server's adapter. */
  nextPageLink?: boolean;
}
