import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { ApiKeyKind } from "@directory/db";
import type { Context } from "./context";
import { DomainError, toPublicError, toTrpcError } from "./errors";
import { authenticateApiKey, type AuthenticatedKey } from "./services/api-keys";

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
    const wrapped = toTrpcError(result.error.cause);
    return { ...result, error: wrapped };
  }
  return result;
});

/**
 * Authenticates a presented bearer token. A request without one stays anonymous; a request with a
 * malformed, unknown or revoked one is refused, so a typo never silently downgrades to anonymous.
 */
const authenticate = t.middleware(async ({ ctx, next }) => {
  if (ctx.bearerToken === null) return next({ ctx: { apiKey: null as AuthenticatedKey | null } });
  try {
    const apiKey = await authenticateApiKey(ctx.db, ctx.bearerToken);
    return next({ ctx: { apiKey } });
  } catch (error) {
    if (error instanceof DomainError) throw toTrpcError(error);
    throw error;
  }
});

/** Guarantee: anonymous callers allowed; a presented key is valid; ctx.apiKey is set when keyed. */
export const publicProcedure = t.procedure.use(domainErrors).use(authenticate);

function requireKey(kinds: readonly ApiKeyKind[] | "any", needed: string) {
  return t.middleware(({ ctx, next }) => {
    const key = (ctx as Context).apiKey;
    if (!key) {
      throw toTrpcError(new DomainError("UNAUTHORIZED", `This operation needs ${needed}: send Authorization: Bearer <key>`));
    }
    if (kinds !== "any" && !kinds.includes(key.kind)) {
      throw toTrpcError(new DomainError("FORBIDDEN", `This operation needs ${needed}; this is a ${key.kind} key`));
    }
    return next({ ctx: { apiKey: key as AuthenticatedKey } });
  });
}

/** Guarantee: ctx.apiKey is a valid, unrevoked key of any kind. */
export const keyedProcedure = publicProcedure.use(requireKey("any", "an API key"));

/** Guarantee: ctx.apiKey is a partner key (or an admin key, which may do everything). */
export const partnerProcedure = publicProcedure.use(requireKey(["partner", "admin"], "a partner API key"));

/**
 * Guarantee: ctx.apiKey is a business key with a businessId. The procedure must still check that
 * the business it acts on is ctx.apiKey.businessId (see assertOwnBusiness).
 */
export const businessProcedure = publicProcedure.use(requireKey(["business"], "a business-scoped API key"));

/** Guarantee: ctx.apiKey is an admin key. */
export const adminProcedure = publicProcedure.use(requireKey(["admin"], "an admin API key"));

export { TRPCError };
