import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { ApiKeyKind } from "@directory/db";
import type { Context } from "./context";
import { DomainError, toPublicError, toTrpcError, type ErrorDetails } from "./errors";
import { authenticateApiKey, type AuthenticatedKey } from "./services/api-keys";
import { clientBucketOf } from "./services/client-ip";
import { consumeRateLimit, rateLimitHeaders, type RateLimitDecision, type RateLimitPolicy } from "./services/rate-limits";

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta>()
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

/**
 * Authenticates a presented bearer token. A request without one stays anonymous; a request with a
 * malformed, unknown or revoked one is refused, so a typo never silently downgrades to anonymous.
 */
function authenticate(refusalDetails: ErrorDetails = {}) {
  return t.middleware(async ({ ctx, next }) => {
    if (ctx.bearerToken === null) return next({ ctx: { apiKey: null as AuthenticatedKey | null } });
    try {
      const apiKey = await authenticateApiKey(ctx.db, ctx.bearerToken);
      return next({ ctx: { apiKey } });
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
 * Keyed quota: every call made with a key counts against the key's flat monthly quota (admin keys
 * excepted). If the counter cannot be read the call is refused: a quota we cannot check is spent.
 */
const keyedQuota = t.middleware(async ({ ctx, next }) => {
  const key = ctx.apiKey;
  if (!key || key.kind === "admin") return next();
  const policy: RateLimitPolicy = { name: "key-monthly", limit: ctx.rateLimits.keyedPerMonth, window: "month" };
  let decision: RateLimitDecision;
  try {
    decision = await consumeRateLimit(ctx.db, `key:${key.id}`, policy);
  } catch (error) {
    ctx.log.warn({ err: error, apiKeyId: key.id }, "quota counter unavailable: refusing keyed request (fail closed)");
    throw toTrpcError(new DomainError("UNAVAILABLE", "The quota service is unavailable; retry shortly"));
  }
  refuseOverLimit(ctx, decision, "This API key's monthly quota");
  return next();
});

/**
 * Anonymous daily limit per client IP (IPv6 per /64). If the counter cannot be read the call goes
 * through: an outage of the limiter must not take the public directory down.
 */
const anonymousDailyLimit = t.middleware(async ({ ctx, next }) => {
  if (ctx.apiKey || ctx.clientIp === null) return next();
  const policy: RateLimitPolicy = { name: "anonymous-daily", limit: ctx.rateLimits.anonymousPerDay, window: "day" };
  let decision: RateLimitDecision;
  try {
    decision = await consumeRateLimit(ctx.db, `ip:${clientBucketOf(ctx.clientIp)}`, policy);
  } catch (error) {
    ctx.log.warn({ err: error }, "rate-limit counter unavailable: letting anonymous request through (fail open)");
    return next();
  }
  refuseOverLimit(ctx, decision, "The anonymous daily limit for your address (supply an API key or wait)");
  return next();
});

/** Guarantee: anonymous callers allowed; a presented key is valid and its monthly quota checked. */
export const publicProcedure = t.procedure.use(domainErrors).use(authenticate()).use(keyedQuota);

/**
 * Guarantee: as publicProcedure, plus the anonymous daily limit per client address (the v2
 * routes). In-process callers without a client address (ctx.clientIp null) are not limited.
 */
export const v2Procedure = publicProcedure.use(anonymousDailyLimit);

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
export const keyedProcedure = publicProcedure.use(requireKey("any", "an API key"));

/** Routes an unkeyed caller may use instead of the partner feed; named in every partner 401. */
export const PARTNER_PUBLIC_ALTERNATIVE = "/api/v2/businesses?category={category}&city={city} (anonymous, 500 requests per day), /api/assistant-plugin, /api/v2/entity-profile?slug={slug}";

/**
 * Guarantee: ctx.apiKey is a partner key (or an admin key, which may do everything), within its
 * monthly quota. Any authentication failure carries publicAlternative (spec 4.4).
 */
export const partnerProcedure = t.procedure
  .use(domainErrors)
  .use(authenticate({ publicAlternative: PARTNER_PUBLIC_ALTERNATIVE }))
  .use(keyedQuota)
  .use(requireKey(["partner", "admin"], "a partner API key", { publicAlternative: PARTNER_PUBLIC_ALTERNATIVE }));

/**
 * Guarantee: ctx.apiKey is a business key with a businessId. The procedure must still check that
 * the business it acts on is ctx.apiKey.businessId.
 */
export const businessProcedure = publicProcedure.use(requireKey(["business"], "a business-scoped API key")).use(({ ctx, next }) => {
  const { businessId } = ctx.apiKey;
  if (!businessId) throw toTrpcError(new DomainError("FORBIDDEN", "This business key is not bound to a business"));
  return next({ ctx: { apiKey: { ...ctx.apiKey, businessId } } });
});

/** Guarantee: ctx.apiKey is an admin key. */
export const adminProcedure = publicProcedure.use(requireKey(["admin"], "an admin API key"));

export { TRPCError };
