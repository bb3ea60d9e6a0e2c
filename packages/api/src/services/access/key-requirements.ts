import type { ApiKeyKind } from "@directory/db";
import type { AccessClass } from "../../procedures/meta";

/**
 * The key kinds each access class admits, in one table: the procedure builders
 * (procedures/builders.ts) refuse the others, and the agentic gateway tells each caller what that
 * leaves it. null: no key needed; "any": any kind of key. An admin key may do everything except act
 * as a business, which needs a key bound to that business. The session and sign-in classes take no
 * key at all (a person's cookie, or nobody yet); no REST operation has them.
 */
export const KEY_KINDS_ADMITTED = {
  open: null,
  "anonymous-daily": null,
  "lead-submission": null,
  "correction-submission": null,
  key: "any",
  partner: ["partner", "admin"],
  business: ["business"],
  admin: ["admin"],
  session: null,
  "sign-in": null,
} as const satisfies Record<AccessClass, readonly ApiKeyKind[] | "any" | null>;

/** Whether a caller with this kind of key (null: none) may call a procedure of this access class. */
export function admitsCaller(access: AccessClass, kind: ApiKeyKind | null): boolean {
  const admitted: readonly ApiKeyKind[] | "any" | null = KEY_KINDS_ADMITTED[access];
  if (admitted === null) return true;
  return kind !== null && (admitted === "any" || admitted.includes(kind));
}
