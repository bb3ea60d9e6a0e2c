import { createHash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import type { ApiKeyKind } from "@directory/db";

/**
 * Key layout: `bdk_<kind>_<secret><check>`.
 *   bdk_   fixed service prefix, so leaked keys are recognisable by secret scanners
 *   kind   dev | ptr | biz | adm
 *   secret 22 base62 characters from 16 random bytes (128 bits)
 *   check  6 base62 characters of CRC-32 over everything before it, so a mistyped key is
 *          rejected without a database query
 */
export const KEY_SERVICE_PREFIX = "bdk_";

const KIND_CODES: Record<ApiKeyKind, string> = { developer: "dev", partner: "ptr", business: "biz", admin: "adm" };
const KINDS_BY_CODE = new Map(Object.entries(KIND_CODES).map(([kind, code]) => [code, kind as ApiKeyKind]));
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LENGTH = 22;
const CHECK_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${KEY_SERVICE_PREFIX}(dev|ptr|biz|adm)_([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECK_LENGTH}})$`);

function toBase62(value: bigint, length: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < length; i++) {
    out = BASE62[Number(rest % 62n)] + out;
    rest /= 62n;
  }
  return out;
}

function checksum(body: string): string {
  return toBase62(BigInt(crc32(body)), CHECK_LENGTH);
}

export function generateApiKey(kind: ApiKeyKind): string {
  const secret = toBase62(BigInt(`0x${randomBytes(16).toString("hex")}`), SECRET_LENGTH);
  const body = `${KEY_SERVICE_PREFIX}${KIND_CODES[kind]}_${secret}`;
  return body + checksum(body);
}

/** The kind a well-formed key claims, or null when the shape or checksum is wrong. */
export function parseApiKey(key: string): ApiKeyKind | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const body = key.slice(0, key.length - CHECK_LENGTH);
  if (checksum(body) !== match[3]) return null;
  return KINDS_BY_CODE.get(match[1] ?? "") ?? null;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** What we store and show in listings: the prefix plus the first 6 secret characters. */
export function visiblePrefixOf(key: string): string {
  return key.slice(0, KEY_SERVICE_PREFIX.length + 4 + 6);
}
