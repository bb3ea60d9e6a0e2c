import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

/**
 * Webhook signing secrets: `whsec_` plus 32 random bytes in base64 (the Standard Webhooks form),
 * shown once at registration and stored only sealed with AES-256-GCM under a key the database
 * never sees (WEBHOOK_SECRET_KEY, or a key file in the data folder).
 */
export const WEBHOOK_SECRET_PREFIX = "whsec_";

export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /**
   * A stable pseudonym of an identity (an address bucket, a key id) for one purpose: the same input
   * gives the same pseudonym on every instance sharing the key, and without the key no one can
   * tell which address it stands for (IPv4 is small enough to hash every address otherwise).
   */
  pseudonym(purpose: string, identity: string): string;
}

const SEALED_VERSION = "v1";

/** A key is 32 bytes, given as 64 hex characters or as base64. */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new Error("WEBHOOK_SECRET_KEY must be 32 bytes, as 64 hex characters or base64");
  return key;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("A secret box key must be 32 bytes");
  return {
    pseudonym(purpose, identity) {
      const purposeKey = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), `pseudonym:${purpose}`, 32));
      return createHmac("sha256", purposeKey).update(identity).digest("base64url");
    },
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `${SEALED_VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64")}`;
    },
    open(sealed) {
      const [version, payload = ""] = sealed.split(":", 2);
      if (version !== SEALED_VERSION) throw new Error("Unknown sealed secret format");
      const raw = Buffer.from(payload, "base64");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    },
  };
}
