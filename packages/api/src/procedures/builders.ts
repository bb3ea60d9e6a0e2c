import { z, type ZodType } from "zod";
import type { ApiKeyKind } from "@directory/db";
import { DomainError, toTrpcError, type ErrorDetails } from "../errors";
import { assertSafeInput } from "../input-gate";
import { authenticateApiKey, type AuthenticatedKey } from "../services/access/api-keys";
import { KEY_KINDS_ADMITTED } from "../services/access/key-requirements";
import { DEFAULT_RATE_LIMITS } from "../services/access/rate-limits";
import { membershipOf } from "../services/agencies/agencies";
import { NO_ENGINE_NOTE } from "../services/citations/owner-recheck";
import { requireServableBySlug } from "../services/entities/business-lookup";
import {
  anonymousDailyLimit,
  anonymousMinuteLimit,
  correctionLimits,
  countCitationRecheck,
  countOwnershipClaim,
  countWebhookSend,
  keyedQuota,
  signInMailLimits,
  type OwnershipClaimCall,
} from "./limits";
import { ZAgencySlug, ZRequestSignInInput, ZSubmitCorrectionInput, ZSubmitLeadInput } from "./submission-inputs";
import { managedBusiness } from "./managed-business";
import { assertOwnOrigin, signedInSession } from "./session-access";
import { recordCallerWrites } from "./read-routing";
import { t } from "./trpc-instance";

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

/** Every procedure starts here: domain errors mapped, input gated, key checked, quota counted. */
const baseProcedure = t.procedure.use(domainErrors).use(inputGate).use(authenticate()).use(recordCallerWrites).use(keyedQuota);

/** Guarantee: anonymous callers allowed, at most `openPerMinute` calls a minute per address. */
export const openProcedure = baseProcedure.meta({ access: "open", cache: "public" }).use(anonymousMinuteLimit);

/** Guarantee: anonymous callers allowed at the spec's daily limit per address (the v2 routes and their twins). */
export const anonymousDailyProcedure = baseProcedure.meta({ access: "anonymous-daily", cache: "public" }).use(anonymousDailyLimit);

/**
 * Guarantee: as anonymousDailyProcedure, plus a valid lead. The lead allowances per address, per key
 * and per target business are counted by the procedure when a new lead is recorded (limits.ts
 * countNewLead), not here: a replay or a refused draft uses none of them.
 */
export const leadSubmissionProcedure = anonymousDailyProcedure.meta({ access: "lead-submission", cache: "private" }).input(ZSubmitLeadInput);

/** Guarantee: as anonymousDailyProcedure, plus a valid correction within the hourly limits per address and per key. */
export const correctionSubmissionProcedure = anonymousDailyProcedure
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

/** Guarantee: as webhookProcedure, and within the key's hourly limit of outbound sends (limits.ts countWebhookSend). */
export const webhookSendProcedure = webhookProcedure.use(async ({ ctx, next }) => {
  await countWebhookSend(ctx, ctx.apiKey.id);
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
 * Guarantee: ctx.business is the business acted on and ctx.actor who acts: its business key (a body
 * naming a business is refused), or a signed-in owner or agency member with access naming it by
 * `slug` (mutations pass the Origin and CSRF checks). Keyed calls count against the key's quota,
 * sessions the per-address minute limit.
 */
export const businessProcedure = baseProcedure
  .meta({ access: "business", cache: "private" })
  .use(anonymousMinuteLimit)
  .use(managedBusiness({ sessionsOnly: false, ownersOnly: false }));

/**
 * Guarantee: as businessProcedure, with at least one citation engine configured (409 otherwise, and
 * nothing counted), and within one recheck per business per UTC day (limits.ts countCitationRecheck:
 * a second is a 429 saying when; a recheck that fails is given back).
 */
export const citationRecheckProcedure = businessProcedure.use(async ({ ctx, next }) => {
  if (ctx.citationEngines.length === 0) {
    throw toTrpcError(new DomainError("CONFLICT", `Nothing to recheck with: ${NO_ENGINE_NOTE}`, { reason: "no_engine_configured" }));
  }
  const giveBack = await countCitationRecheck(ctx, ctx.business.id);
  const result = await next();
  if (!result.ok) await giveBack();
  return result;
});

/** Guarantee: as businessProcedure, for a signed-in manager only (no key): the listing's keys, webhooks and co-owners, so a leaked key cannot mint more. */
export const businessManagerProcedure = baseProcedure
  .meta({ access: "session", cache: "private" })
  .use(anonymousMinuteLimit)
  .use(managedBusiness({ sessionsOnly: true, ownersOnly: false }));

/** Guarantee: as businessManagerProcedure, for the listing's owners only (not an agency): co-owners and agencies' access. */
export const listingOwnerProcedure = baseProcedure
  .meta({ access: "session", cache: "private" })
  .use(anonymousMinuteLimit)
  .use(managedBusiness({ sessionsOnly: true, ownersOnly: true }));

/** Guarantee: ctx.apiKey is an admin key. */
export const adminProcedure = baseProcedure.meta({ access: "admin", cache: "private" }).use(requireKey(KEY_KINDS_ADMITTED.admin, "an admin API key"));

/** Resolves the session cookie (session-access.ts): mutations also pass the Origin and CSRF checks. */
const requireSession = t.middleware(async ({ ctx, type, next }) => next({ ctx: { session: await signedInSession(ctx, type) } }));

/** Guarantee: ctx.session is a signed-in person's valid session (account not disabled); mutations pass the Origin and CSRF checks. Per-address minute limit. */
export const sessionProcedure = t.procedure
  .meta({ access: "session", cache: "private" })
  .use(domainErrors)
  .use(inputGate)
  .use(recordCallerWrites)
  .use(anonymousMinuteLimit)
  .use(requireSession);

const ownOriginOnly = t.middleware(({ ctx, next }) => {
  assertOwnOrigin(ctx);
  return next();
});

/** Guarantee: anonymous callers allowed; the service's own Origin when one is sent; within the sign-in mail limits per address and per client. */
export const signInRequestProcedure = t.procedure
  .meta({ access: "sign-in", cache: "private" })
  .use(domainErrors)
  .use(inputGate)
  .use(ownOriginOnly)
  .input(ZRequestSignInInput)
  .use(signInMailLimits);

/** Guarantee: as openProcedure, never cached, and the service's own Origin when one is sent (nobody signs a browser in from another site). */
export const signInCompletionProcedure = openProcedure.meta({ cache: "private" }).use(ownOriginOnly);

/**
 * Guarantee: as sessionProcedure, with `input` (an object with the listing's slug) valid,
 * ctx.listing the listing of that slug as the public may see it (404 unknown, 410 out of service),
 * and the call within the ownership-claim limits of its kind (limits.ts countOwnershipClaim),
 * counted per person and per listing once the input is valid.
 */
export function ownershipClaimProcedure<TInput extends ZodType<{ slug: string }>>(call: OwnershipClaimCall, input: TInput) {
  return sessionProcedure.input(input).use(async ({ ctx, input: parsed, next }) => {
    const listing = await requireServableBySlug(ctx.db, parsed.slug);
    await countOwnershipClaim(ctx, { accountId: ctx.session.account.id, businessId: listing.id, call });
    return next({ ctx: { listing } });
  });
}

const ZAgencySlugInput = z.object({ agencySlug: ZAgencySlug });

function agencyMembership(ownersOnly: boolean) {
  return sessionProcedure.input(ZAgencySlugInput).use(async ({ ctx, input, next }) => {
    const agency = await membershipOf(ctx.db, input.agencySlug, ctx.session.account.id);
    if (ownersOnly && agency.role !== "owner") throw toTrpcError(new DomainError("FORBIDDEN", `Only the owners of the agency "${agency.slug}" can do this`));
    return next({ ctx: { agency } });
  });
}

/** Guarantee: as sessionProcedure, and ctx.agency the agency `agencySlug` names, of which the person is a member (404 otherwise). */
export const agencyMemberProcedure = agencyMembership(false);

/** Guarantee: as agencyMemberProcedure, and the person is one of the agency's owners (403 for a member): members, plan and developer keys. */
export const agencyOwnerProcedure = agencyMembership(true);
