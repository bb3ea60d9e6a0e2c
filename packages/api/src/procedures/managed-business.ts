import { DomainError, toTrpcError } from "../errors";
import { requireBusinessBySlug } from "../services/entities/business-lookup";
import { managerOf, type BusinessActor } from "../services/owner/business-managers";
import { signedInSession } from "./session-access";
import { t } from "./trpc-instance";

/** Body keys that name a business: a business key decides its business, so naming one is refused (403), never obeyed. */
const BUSINESS_NAMING_KEYS = ["slug", "id", "businessId", "businessSlug"] as const;

export interface ManagedBusinessRule {
  /** Only a signed-in manager, never a key (keys and co-owners are managed by people, so a leaked key cannot mint more). */
  sessionsOnly: boolean;
  /** Only the listing's owners, not an agency's members (co-owners, agencies' access). */
  ownersOnly: boolean;
}

function refuse(code: "UNAUTHORIZED" | "FORBIDDEN" | "INVALID_INPUT", message: string): never {
  throw toTrpcError(new DomainError(code, message));
}

/**
 * One set of checks for the two callers of an owner procedure. With a key, the key decides the
 * business and a body naming one is refused. With a session, `slug` names the business and the
 * person must manage it (business-managers.ts): a stranger gets 403, an unknown slug 404.
 */
export function managedBusiness(rule: ManagedBusinessRule) {
  return t.middleware(async ({ ctx, type, getRawInput, next }) => {
    const raw = await getRawInput();
    const body = raw !== null && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
    const key = ctx.apiKey;
    if (key) {
      if (rule.sessionsOnly) refuse("FORBIDDEN", "This is done signed in, from the listing's dashboard: a key cannot do it");
      if (key.kind !== "business") refuse("FORBIDDEN", `This operation needs a business-scoped API key; this is a ${key.kind} key`);
      if (!key.businessId) refuse("FORBIDDEN", "This business key is not bound to a business");
      const named = BUSINESS_NAMING_KEYS.filter((name) => name in body);
      if (named.length > 0) {
        refuse("FORBIDDEN", `The body names a business (${named.join(", ")}): a business key acts only for the business it is bound to; leave it out`);
      }
      return next({ ctx: { business: { id: key.businessId }, actor: { kind: "key", keyId: key.id } as BusinessActor } });
    }
    if (!ctx.cookieHeader && !rule.sessionsOnly) {
      refuse("UNAUTHORIZED", "This operation needs a business-scoped API key (send Authorization: Bearer <key>), or the listing's owner signed in");
    }
    const session = await signedInSession(ctx, type);
    const slug = body.slug;
    if (typeof slug !== "string" || slug.trim() === "")
      refuse("INVALID_INPUT", "Invalid parameter slug: name the business you manage (account.businesses.list)");
    const business = await requireBusinessBySlug(ctx.db, slug);
    const manager = await managerOf(ctx.db, session.account.id, business.id);
    if (!manager) refuse("FORBIDDEN", `You do not manage "${business.slug}"`);
    if (rule.ownersOnly && manager.role !== "owner") refuse("FORBIDDEN", `Only the owners of "${business.slug}" can do this`);
    return next({ ctx: { session, business: { id: business.id }, actor: { kind: "session", manager } as BusinessActor } });
  });
}
