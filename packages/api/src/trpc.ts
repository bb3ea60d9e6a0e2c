import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { ApiKeyKind } from "@directory/db";
import type { Context } from "./context";
import { DomainError, toPublicError, toTrpcError, type ErrorDetails } from "./errors";
import { assertSafeInput } from "./input-gate";
import { ZSubmitCorrectionInput } from "./routers/corrections/submit-correction.types";
import { ZSubmitLeadInput } from "./routers/leads/submit-lead.types";
import { authenticateApiKey, type AuthenticatedKey } from "./services/access/api-keys";
import { clientBucketOf } from "./services/access/client-ip";
import { KEY_KINDS_ADMITTED } from "./services/access/key-requirements";
import { consumeBufferedRateLimit } from "./services/access/buffered-rate-limits";
import {
  consumeRateLimit,
  DEFAULT_RATE_LIMITS,
  rateLimitHeaders,
  refundRateLimit,
  type RateLimitDecision,
  type RateLimitPolicy,
  type RateLimitSettings,
} from "./services/access/rate-limits";

/**
 * Who may call a procedure and which limit counts it; every procedure gets exactly one, from the
 * builder it is made with, so REST, tRPC, MCP, pages and GraphQL count and refuse alike.
 * - open: anonymous allowed, a per-minute abuse limit per address (assistant-plugin, agent.json)
 * - anonymous-daily: anonymous allowed at the spec's daily limit per address (v2 and its twins)
 * - lead-submission: anonymous-daily plus tighter lead limits per address, key and business
 * - correction-submission: anonymous-daily plus hourly correction limits per address and per key
 * - key, partner, business, admin: that kind of key required
 * Every keyed call that is served, in any class, counts against the key's monthly quota (admin keys
 * excepted); a refused or failed one gives its count back.
 */
export type AccessClass = "open" | "anonymous-daily" | "lead-submission" | "correction-submission" | "key" | "partner" | "business" | "admin";

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

const t = initTRPC
  .context<Context>()
  .meta<DirectoryMeta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error }) {
      const { status, body } = toPublicError(error);
      // No stack and no internal message ever leaves; `public` is the REST body verbatim.
      const { stack: _stack, ...data } = shape.data;
      return { ...shape, message: body.error, data: { ...data, httpStatus: status, public: body } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Turns domain errors thrown by services into tRPC errors that keep their HTTP status. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof DomainError) {
    return { ...result, error: toTrpcError(result.error.cause) };
  }
  return result;
});

/** The input gate (input-gate.ts) runs before any other work, on every procedure. */
const inputGate = t.middleware(async ({ next, getRawInput }) => {
  try {
    assertSafeInput(await getRawInput());
  } catch (error) {
    if (error instanceof DomainError) throw toTrpcError(error);
    throw error;
  }
  return next();
});

/**
 * Authenticates a presented bearer token. A request without one stays anonymous; a request with a
 * malformed, unknown or revoked one is refused, so a typo never silently downgrades to anonymous.
 */
function authenticate(refusalDetails: ErrorDetails = {}) {
  return t.middleware(async ({ ctx, next }) => {
    if (ctx.bearerToken === null) return next({ ctx: { apiKey: null as AuthenticatedKey | null } });
    try {
      const apiKey = await authenticateApiKey(ctx.db, ctx.bearerToken);
      return await next({ ctx: { apiKey } });
    } catch (error) {
      if (error instanceof DomainError) throw toTrpcError(new DomainError(error.code, error.message, refusalDetails));
      throw error;
    }
  });
}

function refuseOverLimit(ctx: Context, decision: RateLimitDecision, what: string): void {
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) ctx.setHeader(name, value);
  if (decision.allowed) return;
  const resetAt = decision.resetAt.toISOString();
  throw toTrpcError(
    new DomainError("RATE_LIMITED", `${what} of ${decision.policy.limit} requests is used up; it resets at ${resetAt}`, {
      limit: decision.policy.limit,
      policy: decision.policy.name,
      resetAt,
    }),
  );
}

/**
 * Counts one call of a subject under a policy and refuses it when the limit is used up. When the
 * counter cannot be read, "closed" refuses the call with a 503 (a quota we cannot check is spent)
 * and "open" lets it through (a limiter outage must not take the public directory down).
 */
async function countCall(
  ctx: Context,
  subject: string,
  policy: RateLimitPolicy,
  what: string,
  onCounterFailure: "open" | "closed",
  now = new Date(),
): Promise<void> {
  let decision: RateLimitDecision;
  try {
    // Fail-open limits may count in memory between exact writes (buffered-rate-limits.ts).
    decision = await (onCounterFailure === "open" ? consumeBufferedRateLimit : consumeRateLimit)(ctx.db, { subject, policy, now });
  } catch (error) {
    ctx.log.warn(
      { err: error, policy: policy.name },
      `rate-limit counter unavailable: ${onCounterFailure === "open" ? "letting the call through (fail open)" : "refusing the call (fail closed)"}`,
    );
    if (onCounterFailure === "open") return;
    throw toTrpcError(new DomainError("UNAVAILABLE", "The quota service is unavailable; retry shortly"));
  }
  refuseOverLimit(ctx, decision, what);
}

/**
 * Keyed quota: every call made with a key that is served counts against its flat monthly quota
 * (admin keys excepted). The call is counted first, so N remaining calls admit exactly N however
 * many race; one that is then refused (a wrong key kind, an unknown slug, a malformed parameter) or
 * fails gives its count back: a caller pays for answers, not for our refusals.
 */
const keyedQuota = t.middleware(async ({ ctx, next }) => {
  const key = ctx.apiKey;
  if (!key || key.kind === "admin") return next();
  const charge = { subject: `key:${key.id}`, policy: { name: "key-monthly", limit: ctx.rateLimits.keyedPerMonth, window: "month" as const }, now: new Date() };
  await countCall(ctx, charge.subject, charge.policy, "This API key's monthly quota", "closed", charge.now);
  const result = await next();
  if (!result.ok) {
    try {
      for (const [name, value] of Object.entries(rateLimitHeaders(await refundRateLimit(ctx.db, charge)))) ctx.setHeader(name, value);
    } catch (error) {
      ctx.log.warn({ err: error, policy: charge.policy.name }, "rate-limit counter unavailable: a refused call stays counted");
    }
  }
  return result;
});

/**
 * A per-address limit for anonymous callers (IPv6 per /64), failing open. In-process callers
 * without a client address (ctx.clientIp null) are not limited.
 */
function anonymousLimit(policyOf: (limits: RateLimitSettings) => RateLimitPolicy, what: string) {
  return t.middleware(async ({ ctx, next }) => {
    if (!ctx.apiKey && ctx.clientIp !== null) await countCall(ctx, `ip:${clientBucketOf(ctx.clientIp)}`, policyOf(ctx.rateLimits), what, "open");
    return next();
  });
}

/** Lead subjects: the anonymous address or the key (admin exempt), and the target business. */
function leadSubjects(ctx: Context, slug: unknown): { subject: string; policy: RateLimitPolicy; what: string }[] {
  const limits = ctx.rateLimits;
  const subjects: { subject: string; policy: RateLimitPolicy; what: string }[] = [];
  if (ctx.apiKey && ctx.apiKey.kind !== "admin") {
    subjects.push({
      subject: `key:${ctx.apiKey.id}`,
      policy: { name: "lead-key-hourly", limit: limits.leadsPerKeyPerHour, window: "hour" },
      what: "This API key's hourly lead limit",
    });
  } else if (!ctx.apiKey && ctx.clientIp !== null) {
    subjects.push({
      subject: `ip:${clientBucketOf(ctx.clientIp)}`,
      policy: { name: "lead-address-hourly", limit: limits.leadsPerAddressPerHour, window: "hour" },
      what: "The hourly lead limit for your address",
    });
  }
  if (typeof slug === "string" && slug.trim() !== "") {
    subjects.push({
      subject: `business:${slug.trim().toLowerCase().slice(0, 200)}`,
      policy: { name: "lead-business-daily", limit: limits.leadsPerBusinessPerDay, window: "day" },
      what: "The daily lead limit of this business",
    });
  }
  return subjects;
}

/**
 * Lead submission writes personal data and reaches a business's inbox, so it has limits of its
 * own, counted once the input is valid (a refused draft costs no one's allowance), failing closed
 * (nothing is lost: the lead can be retried).
 */
const leadLimits = t.middleware(async ({ ctx, next, input }) => {
  for (const { subject, policy, what } of leadSubjects(ctx, (input as { slug?: unknown }).slug)) await countCall(ctx, subject, policy, what, "closed");
  return next();
});

/** Every procedure starts here: domain errors mapped, input gated, key checked, quota counted. */
const baseProcedure = t.procedure.use(domainErrors).use(inputGate).use(authenticate()).use(keyedQuota);

/** Guarantee: anonymous callers allowed, at most `openPerMinute` calls a minute per address. */
export const openProcedure = baseProcedure
  .meta({ access: "open", cache: "public" })
  .use(anonymousLimit((limits) => ({ name: "anonymous-minute", limit: limits.openPerMinute, window: "minute" }), "The per-minute limit for your address"));

/** Guarantee: anonymous callers allowed at the spec's daily limit per address (the v2 routes and their twins). */
export const v2Procedure = baseProcedure
  .meta({ access: "anonymous-daily", cache: "public" })
  .use(
    anonymousLimit(
      (limits) => ({ name: "anonymous-daily", limit: limits.anonymousPerDay, window: "day" }),
      "The anonymous daily limit for your address (supply an API key or wait)",
    ),
  );

/** Guarantee: as v2Procedure, plus a valid lead within the limits per address, per key and per target business. */
export const leadSubmissionProcedure = v2Procedure.meta({ access: "lead-submission", cache: "private" }).input(ZSubmitLeadInput).use(leadLimits);

/**
 * Who submitted a correction, as one independent caller: the key, else the address bucket, else
 * (in-process callers with neither) one shared anonymous caller. Corrections weigh by it.
 */
export function correctionSubmitterOf(ctx: Context): string {
  if (ctx.apiKey) return `key:${ctx.apiKey.id}`;
  return ctx.clientIp !== null ? `ip:${clientBucketOf(ctx.clientIp)}` : "anonymous";
}

/**
 * Corrections reach an admin's queue and the business's owner, so they have hourly limits of their
 * own: per anonymous address (correctionsPerAddressPerHour, low) and per key (admin exempt),
 * counted once the input is valid, failing closed (a correction can be sent again later).
 */
const correctionLimits = t.middleware(async ({ ctx, next }) => {
  const limits = ctx.rateLimits;
  if (ctx.apiKey && ctx.apiKey.kind !== "admin") {
    await countCall(
      ctx,
      `key:${ctx.apiKey.id}`,
      { name: "correction-key-hourly", limit: limits.correctionsPerKeyPerHour, window: "hour" },
      "This API key's hourly correction limit",
      "closed",
    );
  } else if (!ctx.apiKey && ctx.clientIp !== null) {
    await countCall(
      ctx,
      `ip:${clientBucketOf(ctx.clientIp)}`,
      { name: "correction-address-hourly", limit: limits.correctionsPerAddressPerHour, window: "hour" },
      "The hourly correction limit for your address",
      "closed",
    );
  }
  return next();
});

/** Guarantee: as v2Procedure, plus a valid correction within the hourly limits per address and per key. */
export const correctionSubmissionProcedure = v2Procedure
  .meta({ access: "correction-submission", cache: "private" })
  .input(ZSubmitCorrectionInput)
  .use(correctionLimits);

function requireKey(kinds: readonly ApiKeyKind[] | "any", needed: string, refusalDetails: ErrorDetails = {}) {
  return t.middleware(({ ctx, next }) => {
    const key = ctx.apiKey;
    if (!key) {
      throw toTrpcError(new DomainError("UNAUTHORIZED", `This operation needs ${needed}: send Authorization: Bearer <key>`, refusalDetails));
    }
    if (kinds !== "any" && !kinds.includes(key.kind)) {
      throw toTrpcError(new DomainError("FORBIDDEN", `This operation needs ${needed}; this is a ${key.kind} key`, refusalDetails));
    }
    return next({ ctx: { apiKey: key } });
  });
}

/** Guarantee: ctx.apiKey is a valid, unrevoked key of any kind, within its monthly quota. */
export const keyedProcedure = baseProcedure.meta({ access: "key", cache: "private" }).use(requireKey(KEY_KINDS_ADMITTED.key, "an API key"));

/**
 * Guarantee: as keyedProcedure, and ctx.webhooks is ready (sealing key and outbound policy). The
 * procedure must still scope every webhook to ctx.apiKey.
 */
export const webhookProcedure = keyedProcedure.use(({ ctx, next }) => {
  if (!ctx.webhookConfig) throw toTrpcError(new DomainError("UNAVAILABLE", "Webhooks are not configured on this server"));
  return next({ ctx: { webhooks: { ...ctx.webhookConfig, publicBaseUrl: ctx.publicBaseUrl } } });
});

/**
 * Guarantee: as webhookProcedure, and at most webhookSendsPerKeyPerHour calls per key per hour,
 * counted closed: each one is an outbound POST to the key's receiver, which no key may turn into
 * a stream of requests at someone else's server.
 */
export const webhookSendProcedure = webhookProcedure.use(async ({ ctx, next }) => {
  await countCall(
    ctx,
    `webhook-sends:${ctx.apiKey.id}`,
    { name: "webhook-sends-hourly", limit: ctx.rateLimits.webhookSendsPerKeyPerHour, window: "hour" },
    "This API key's hourly limit of webhook test sends and redeliveries",
    "closed",
  );
  return next();
});

/** Routes an unkeyed caller may use instead of the partner feed; named in every partner 401. */
export const PARTNER_PUBLIC_ALTERNATIVE = `/api/v2/businesses?category={category}&city={city} (anonymous, ${DEFAULT_RATE_LIMITS.anonymousPerDay} requests per day), /api/assistant-plugin, /api/v2/entity-profile?slug={slug}`;

/**
 * Guarantee: ctx.apiKey is a partner key (or an admin key, which may do everything), within its
 * monthly quota. Any authentication failure carries publicAlternative (spec 4.4).
 */
export const partnerProcedure = t.procedure
  .meta({ access: "partner", cache: "private", crossOriginRead: true })
  .use(domainErrors)
  .use(inputGate)
  .use(authenticate({ publicAlternative: PARTNER_PUBLIC_ALTERNATIVE }))
  .use(keyedQuota)
  .use(requireKey(KEY_KINDS_ADMITTED.partner, "a partner API key", { publicAlternative: PARTNER_PUBLIC_ALTERNATIVE }));

/**
 * Guarantee: ctx.apiKey is a business key with a businessId. The procedure must still check that
 * the business it acts on is ctx.apiKey.businessId.
 */
export const businessProcedure = baseProcedure
  .meta({ access: "business", cache: "private" })
  .use(requireKey(KEY_KINDS_ADMITTED.business, "a business-scoped API key"))
  .use(({ ctx, next }) => {
    const { businessId } = ctx.apiKey;
    if (!businessId) throw toTrpcError(new DomainError("FORBIDDEN", "This business key is not bound to a business"));
    return next({ ctx: { apiKey: { ...ctx.apiKey, businessId } } });
  });

/** Guarantee: ctx.apiKey is an admin key. */
export const adminProcedure = baseProcedure.meta({ access: "admin", cache: "private" }).use(requireKey(KEY_KINDS_ADMITTED.admin, "an admin API key"));

export { TRPCError };
