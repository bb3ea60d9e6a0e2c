import { createHash, randomBytes } from "node:crypto";
import type { Db } from "@directory/db";
import type { Context } from "../context";
import { DomainError, toTrpcError } from "../errors";
import { consumeBufferedRateLimit } from "../services/access/buffered-rate-limits";
import { clientBucketOf } from "../services/access/client-ip";
import { createSecretBox } from "../services/webhooks/secrets";
import {
  consumeRateLimit,
  keyMonthlyPolicy,
  keyQuotaSubject,
  rateLimitHeaders,
  refundRateLimit,
  type RateLimitDecision,
  type RateLimitPolicy,
  type RateLimitSettings,
} from "../services/access/rate-limits";
import { t } from "./trpc-instance";

/*
 * The limit policy: which calls count against which limit, and what happens when a counter cannot
 * be read. The builders (builders.ts) attach these; no procedure counts on its own.
 */

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
  db: Db = ctx.db,
): Promise<void> {
  let decision: RateLimitDecision;
  try {
    // Fail-open limits may count in memory between exact writes (buffered-rate-limits.ts).
    decision = await (onCounterFailure === "open" ? consumeBufferedRateLimit : consumeRateLimit)(db, { subject, policy, now });
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
export const keyedQuota = t.middleware(async ({ ctx, next }) => {
  const key = ctx.apiKey;
  if (!key || key.kind === "admin") return next();
  const charge = { subject: keyQuotaSubject(key.id), policy: keyMonthlyPolicy(ctx.rateLimits, key.onTrial), now: new Date() };
  const what = key.onTrial
    ? `This key's trial quota (its account has no developer plan; a plan raises it to ${ctx.rateLimits.keyedPerMonth} a month: see /developers)`
    : "This API key's monthly quota";
  await countCall(ctx, charge.subject, charge.policy, what, "closed", charge.now);
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

/** The open class's abuse limit: `openPerMinute` anonymous calls a minute per address. */
export const anonymousMinuteLimit = anonymousLimit(
  (limits) => ({ name: "anonymous-minute", limit: limits.openPerMinute, window: "minute" }),
  "The per-minute limit for your address",
);

/** The spec's daily limit for anonymous callers: `anonymousPerDay` calls a day per address. */
export const anonymousDailyLimit = anonymousLimit(
  (limits) => ({ name: "anonymous-daily", limit: limits.anonymousPerDay, window: "day" }),
  "The anonymous daily limit for your address (supply an API key or wait)",
);

/** A lead's allowances: the anonymous address's or the key's (admin exempt), and the target business's. */
function leadAllowances(ctx: Context, businessSlug: string): { subject: string; policy: RateLimitPolicy; what: string }[] {
  const limits = ctx.rateLimits;
  const allowances: { subject: string; policy: RateLimitPolicy; what: string }[] = [];
  if (ctx.apiKey && ctx.apiKey.kind !== "admin") {
    allowances.push({
      subject: `key:${ctx.apiKey.id}`,
      policy: { name: "lead-key-hourly", limit: limits.leadsPerKeyPerHour, window: "hour" },
      what: "This API key's hourly lead limit",
    });
  } else if (!ctx.apiKey && ctx.clientIp !== null) {
    allowances.push({
      subject: `ip:${clientBucketOf(ctx.clientIp)}`,
      policy: { name: "lead-address-hourly", limit: limits.leadsPerAddressPerHour, window: "hour" },
      what: "The hourly lead limit for your address",
    });
  }
  allowances.push({
    subject: `business:${businessSlug}`,
    policy: { name: "lead-business-daily", limit: limits.leadsPerBusinessPerDay, window: "day" },
    what: "The daily lead limit of this business",
  });
  return allowances;
}

/**
 * Lead submission writes personal data and reaches a business's inbox, so it has allowances of its
 * own. Only a lead actually recorded counts: the service calls this inside the transaction that
 * writes the lead, so a replay (the first lead answered again) and a refused draft (bad input, no
 * consent, an unknown business) cost nothing, and a refusal here rolls back the counts already
 * made with the lead. Fails closed: nothing is lost, the lead can be retried.
 */
export async function countNewLead(ctx: Context, tx: Db, businessSlug: string): Promise<void> {
  const now = new Date();
  for (const { subject, policy, what } of leadAllowances(ctx, businessSlug)) await countCall(ctx, subject, policy, what, "closed", now, tx);
}

/** Where the server gave no key (in-process callers), pseudonyms are of this process alone. */
const processSecretBox = createSecretBox(randomBytes(32));

/**
 * Who submitted a correction, as one independent caller: the key, else the address bucket, else
 * (in-process callers with neither) one shared anonymous caller. Corrections weigh by it. Stored
 * as a keyed pseudonym, so the corrections table never holds a client's address.
 */
export function correctionSubmitterOf(ctx: Context): string {
  const caller = ctx.apiKey ? `key:${ctx.apiKey.id}` : ctx.clientIp !== null ? `ip:${clientBucketOf(ctx.clientIp)}` : "anonymous";
  return (ctx.webhookConfig?.secretBox ?? processSecretBox).pseudonym("correction-submitter", caller);
}

/**
 * Corrections reach an admin's queue and the business's owner, so they have hourly limits of their
 * own: per anonymous address (correctionsPerAddressPerHour, low) and per key (admin exempt),
 * counted once the input is valid, failing closed (a correction can be sent again later).
 */
export const correctionLimits = t.middleware(async ({ ctx, next }) => {
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

/**
 * At most webhookSendsPerKeyPerHour webhook test sends and redeliveries per key, counted closed:
 * each one is an outbound POST to the key's receiver, which no key may turn into a stream of
 * requests at someone else's server.
 */
export function countWebhookSend(ctx: Context, keyId: string): Promise<void> {
  return countCall(
    ctx,
    `webhook-sends:${keyId}`,
    { name: "webhook-sends-hourly", limit: ctx.rateLimits.webhookSendsPerKeyPerHour, window: "hour" },
    "This API key's hourly limit of webhook test sends and redeliveries",
    "closed",
  );
}

/** A sign-in mail's subjects: the address it goes to (hashed: counters hold no addresses) and the client asking. */
export const signInMailLimits = t.middleware(async ({ ctx, next, input }) => {
  const { email } = input as { email: string };
  const hour = "hour" as const;
  const mailbox = createHash("sha256").update(email.toLowerCase()).digest("base64url");
  await countCall(
    ctx,
    `email:${mailbox}`,
    { name: "sign-in-mail-address", limit: ctx.rateLimits.signInMailsPerAddressPerHour, window: hour },
    "The sign-in mails for this address",
    "closed",
  );
  if (ctx.clientIp !== null) {
    const policy = { name: "sign-in-mail-client", limit: ctx.rateLimits.signInMailsPerClientPerHour, window: hour };
    await countCall(ctx, `ip:${clientBucketOf(ctx.clientIp)}`, policy, "The sign-in mails asked from your address", "closed");
  }
  return next();
});

/** The calls of an ownership claim the limits tell apart: a start (website token, review), an email code (a start that mails), a proof (a website check, a code tried). */
export type OwnershipClaimCall = "start" | "email-code" | "proof";

/**
 * Claim floods: starts per person (10 an hour) and per listing (20 a day), codes mailed to a
 * listing (3 an hour: its mailbox is not flooded, and each code is five more guesses), and proofs
 * per person (30 an hour) and per listing (60 an hour: each website check fetches the listing's
 * site). Fixed here rather than in RateLimitSettings: no deployment has needed other numbers.
 */
export const OWNERSHIP_CLAIM_POLICIES = {
  startsPerPerson: { name: "ownership-claims-person", limit: 10, window: "hour" },
  startsPerListing: { name: "ownership-claims-listing", limit: 20, window: "day" },
  emailCodesPerListing: { name: "ownership-codes-listing", limit: 3, window: "hour" },
  proofsPerPerson: { name: "ownership-proofs-person", limit: 30, window: "hour" },
  proofsPerListing: { name: "ownership-proofs-listing", limit: 60, window: "hour" },
} as const satisfies Record<string, RateLimitPolicy>;

/** Counts one ownership-claim call of a person on a listing, failing closed (a claim can be made again later). */
export async function countOwnershipClaim(ctx: Context, params: { accountId: string; businessId: string; call: OwnershipClaimCall }): Promise<void> {
  const person = `account:${params.accountId}`;
  const listing = `business:${params.businessId}`;
  const policies = OWNERSHIP_CLAIM_POLICIES;
  const counts: [subject: string, policy: RateLimitPolicy, what: string][] = [];
  if (params.call === "proof") {
    counts.push([person, policies.proofsPerPerson, "Your hourly limit of ownership checks"]);
    counts.push([listing, policies.proofsPerListing, "This listing's hourly limit of ownership checks"]);
  } else {
    if (params.call === "email-code") counts.push([listing, policies.emailCodesPerListing, "The hourly limit of codes mailed to this listing"]);
    counts.push([person, policies.startsPerPerson, "Your hourly limit of ownership claims"]);
    counts.push([listing, policies.startsPerListing, "This listing's daily limit of ownership claims"]);
  }
  for (const [subject, policy, what] of counts) await countCall(ctx, subject, policy, what, "closed");
}

/** An owner's citation recheck: one per business per UTC day, counted in the database, so every instance holds to it. */
export const CITATION_RECHECK_POLICY = { name: "citation-recheck", limit: 1, window: "day" } as const satisfies RateLimitPolicy;

/**
 * Counts a business's recheck of the day, failing closed; refused, a 429 saying when it may ask
 * again (resetAt, Retry-After). Returns the give-back for a recheck that then fails to be queued.
 */
export async function countCitationRecheck(ctx: Context, businessId: string): Promise<() => Promise<void>> {
  const charge = { subject: `business:${businessId}`, policy: CITATION_RECHECK_POLICY, now: new Date() };
  let decision: RateLimitDecision;
  try {
    decision = await consumeRateLimit(ctx.db, charge);
  } catch (error) {
    ctx.log.warn({ err: error, policy: charge.policy.name }, "rate-limit counter unavailable: refusing the recheck (fail closed)");
    throw toTrpcError(new DomainError("UNAVAILABLE", "The quota service is unavailable; retry shortly"));
  }
  if (!decision.allowed) {
    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) ctx.setHeader(name, value);
    const resetAt = decision.resetAt.toISOString();
    throw toTrpcError(
      new DomainError("RATE_LIMITED", `This business already asked for a recheck today (UTC); it may ask again at ${resetAt}`, {
        limit: CITATION_RECHECK_POLICY.limit,
        policy: CITATION_RECHECK_POLICY.name,
        resetAt,
      }),
    );
  }
  return async () => {
    await refundRateLimit(ctx.db, charge).catch((error: unknown) => ctx.log.warn({ err: error, policy: charge.policy.name }, "a failed recheck stays counted"));
  };
}
