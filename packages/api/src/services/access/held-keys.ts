import { and, asc, count, isNull, sql, type SQL } from "drizzle-orm";
import { apiKeys, type ApiKey, type ApiKeyKind, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { generateApiKey, hashApiKey, visiblePrefixOf } from "./api-key-format";

/*
 * Keys people hold and manage themselves: an account's developer keys (accounts/account-keys.ts)
 * and a listing's business keys (owner/business-keys.ts). One set of rules for both: a bounded
 * number active at once, the key shown once, revoked at once, never another holder's.
 */

/** A held key as its holder sees it: never the key or its hash. */
export interface HeldKeyView {
  id: string;
  label: string;
  visiblePrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export function heldKeyView(row: ApiKey): HeldKeyView {
  return {
    id: row.id,
    label: row.label ?? "",
    visiblePrefix: row.visiblePrefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** The holder's active keys (`held` selects them), oldest first, at most `max`. */
export async function activeHeldKeys(db: Db, held: SQL | undefined, max: number): Promise<ApiKey[]> {
  return db
    .select()
    .from(apiKeys)
    .where(and(held, isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))
    .limit(max);
}

export interface NewHeldKey {
  kind: ApiKeyKind;
  accountId: string;
  businessId?: string;
  label: string;
  /** Selects the keys the cap counts (the holder's of this kind). */
  held: SQL | undefined;
  max: number;
  /** Says who holds at most `max`, for the refusal. */
  capReached: string;
}

/**
 * Makes a key and returns its plaintext: the only time anybody sees it. The caller holds the
 * holder's row lock in `tx`, so two creations at once cannot both pass the cap.
 */
export async function createHeldKey(tx: Db, params: NewHeldKey): Promise<{ id: string; key: string }> {
  const [active] = await tx
    .select({ n: count() })
    .from(apiKeys)
    .where(and(params.held, isNull(apiKeys.revokedAt)));
  if ((active?.n ?? 0) >= params.max) throw new DomainError("CONFLICT", `${params.capReached}: revoke one first`);
  const key = generateApiKey(params.kind);
  const [row] = await tx
    .insert(apiKeys)
    .values({
      kind: params.kind,
      accountId: params.accountId,
      businessId: params.businessId ?? null,
      label: params.label,
      keyHash: hashApiKey(key),
      visiblePrefix: visiblePrefixOf(key),
    })
    .returning({ id: apiKeys.id });
  if (!row) throw new Error("insert into api_keys returned no row");
  return { id: row.id, key };
}

/** Revokes one held key at once (`held` selects the holder's, so another's id is "not found", never touched). */
export async function revokeHeldKey(db: Db, held: SQL | undefined, notFound: string): Promise<void> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(held)
    .returning({ id: apiKeys.id });
  if (!row) throw new DomainError("NOT_FOUND", notFound);
}
