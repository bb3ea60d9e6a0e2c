import { and, desc, eq, isNull } from "drizzle-orm";
import { accountPlans, accounts, apiKeys, type ApiKey, type ApiKeyKind, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { generateApiKey, hashApiKey, parseApiKey, visiblePrefixOf } from "./api-key-format";
import { requireBusinessBySlug } from "../entities/business-lookup";
import { planCountsSql } from "../accounts/plans";

export interface AuthenticatedKey {
  id: string;
  kind: ApiKeyKind;
  businessId: string | null;
  /** The account that made the key on the developer page; null for an operator's key. */
  accountId: string | null;
  /** A key of an account without a developer plan counts against the trial quota. */
  onTrial: boolean;
}

export interface CreateApiKeyParams {
  kind: ApiKeyKind;
  /** Required for business keys, forbidden for the other kinds. */
  businessSlug?: string;
  label?: string;
}

/** A key as admins see it: never the key or its hash; dates as ISO strings. */
export interface ApiKeySummary {
  id: string;
  kind: ApiKeyKind;
  visiblePrefix: string;
  businessId: string | null;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
  /** The email of the account that made the key on the developer page; null for an operator's key. */
  accountEmail: string | null;
}

function summarise(row: ApiKey, accountEmail: string | null): ApiKeySummary {
  const { id, kind, visiblePrefix, businessId, label, createdAt, revokedAt } = row;
  return { id, kind, visiblePrefix, businessId, label, createdAt: createdAt.toISOString(), revokedAt: revokedAt?.toISOString() ?? null, accountEmail };
}

/** Keys with the email of the account that made them (null for an operator's key). */
function selectKeysWithAccount(db: Db) {
  return db.select({ key: apiKeys, accountEmail: accounts.email }).from(apiKeys).leftJoin(accounts, eq(accounts.id, apiKeys.accountId));
}

export interface CreatedApiKey {
  /** The plaintext key. */
  key: string;
  apiKey: ApiKeySummary;
}

/** Creates a key and returns its plaintext: the only time anybody sees it. */
export async function createApiKey(db: Db, params: CreateApiKeyParams): Promise<CreatedApiKey> {
  let businessId: string | null = null;
  if (params.kind === "business") {
    if (!params.businessSlug) throw new DomainError("INVALID_INPUT", "A business key needs the business it is bound to");
    businessId = (await requireBusinessBySlug(db, params.businessSlug)).id;
  } else if (params.businessSlug) {
    throw new DomainError("INVALID_INPUT", `A ${params.kind} key cannot be bound to a business`);
  }
  return insertApiKey(db, params.kind, businessId, params.label ?? null, generateApiKey(params.kind));
}

export interface ProvisionApiKeyParams {
  /** The plaintext key, well-formed for this service. */
  key: string;
  label: string;
}

/** Stores a given plaintext key (used to provision ADMIN_API_KEY); idempotent for the same key. */
export async function provisionApiKey(db: Db, params: ProvisionApiKeyParams): Promise<ApiKeySummary> {
  const { key, label } = params;
  const kind = parseApiKey(key);
  if (!kind) throw new DomainError("INVALID_API_KEY", "The provisioned key is not a well-formed key of this service");
  const [existing] = await selectKeysWithAccount(db).where(eq(apiKeys.keyHash, hashApiKey(key)));
  if (existing) return summarise(existing.key, existing.accountEmail);
  return (await insertApiKey(db, kind, null, label, key)).apiKey;
}

async function insertApiKey(db: Db, kind: ApiKeyKind, businessId: string | null, label: string | null, key: string): Promise<CreatedApiKey> {
  const [row] = await db
    .insert(apiKeys)
    .values({ kind, businessId, label, keyHash: hashApiKey(key), visiblePrefix: visiblePrefixOf(key) })
    .returning();
  if (!row) throw new Error("insert into api_keys returned no row");
  // Keys made here are an operator's: no account.
  return { key, apiKey: summarise(row, null) };
}

export interface HasActiveApiKeyParams {
  kind: ApiKeyKind;
}

/** Whether an unrevoked key of this kind exists: the first start creates an admin key only when none does. */
export async function hasActiveApiKey(db: Db, params: HasActiveApiKeyParams): Promise<boolean> {
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.kind, params.kind), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row !== undefined;
}

/** Newest first; bounded because a list endpoint must never return an unbounded set. */
export async function listApiKeys(db: Db, params: { limit: number; includeRevoked: boolean }): Promise<ApiKeySummary[]> {
  const rows = await selectKeysWithAccount(db)
    .where(params.includeRevoked ? undefined : isNull(apiKeys.revokedAt))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(params.limit);
  return rows.map((row) => summarise(row.key, row.accountEmail));
}

export async function revokeApiKey(db: Db, id: string): Promise<ApiKeySummary> {
  await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
  const [existing] = await selectKeysWithAccount(db).where(eq(apiKeys.id, id));
  if (!existing) throw new DomainError("NOT_FOUND", `No API key with id ${id}`);
  return summarise(existing.key, existing.accountEmail);
}

/** A key's last use is written at most this often: a busy key costs no extra write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves a presented key. Malformed keys fail on the checksum before any query; revoked keys,
 * and keys of a disabled account, fail at once because the lookup reads them on every request (no
 * cache to go stale). The account's plan is read in the same query.
 */
export async function authenticateApiKey(db: Db, key: string, now = new Date()): Promise<AuthenticatedKey> {
  if (!parseApiKey(key)) throw new DomainError("INVALID_API_KEY", "The API key is malformed");
  const [row] = await db
    .select({
      id: apiKeys.id,
      kind: apiKeys.kind,
      businessId: apiKeys.businessId,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      accountId: apiKeys.accountId,
      accountDisabledAt: accounts.disabledAt,
      planAccountId: accountPlans.accountId,
    })
    .from(apiKeys)
    .leftJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .leftJoin(accountPlans, and(eq(accountPlans.accountId, apiKeys.accountId), planCountsSql(now)))
    .where(eq(apiKeys.keyHash, hashApiKey(key)));
  if (!row || row.revokedAt || row.accountDisabledAt) throw new DomainError("INVALID_API_KEY", "The API key is unknown or revoked");
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id));
  }
  return {
    id: row.id,
    kind: row.kind,
    businessId: row.businessId,
    accountId: row.accountId,
    // The trial limit is a developer plan's; a listing's business key is free whoever took it.
    onTrial: row.kind === "developer" && row.accountId !== null && row.planAccountId === null,
  };
}
