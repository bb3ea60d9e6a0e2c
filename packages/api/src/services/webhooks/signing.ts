import { createHmac } from "node:crypto";
import { WEBHOOK_SECRET_PREFIX } from "./secrets";

/**
 * The headers that let a receiver trust a delivery:
 * - X-Service-Signature (spec 6): lowercase hex HMAC-SHA256 of the raw body, keyed with the newest
 *   secret string exactly as it was returned;
 * - Standard Webhooks: webhook-id, webhook-timestamp, and webhook-signature with one `v1,<base64>`
 *   per live secret (the old one too during a rotation) over `id.timestamp.body`, keyed with the
 *   base64-decoded part after `whsec_`, so the `standardwebhooks` library verifies it and rejects replays.
 */
export function signatureHeaders(params: { secrets: readonly string[]; eventId: string; timestamp: Date; body: string }): Record<string, string> {
  const [newest] = params.secrets;
  if (!newest) throw new Error("A delivery needs at least one secret");
  const seconds = Math.floor(params.timestamp.getTime() / 1000).toString();
  const signed = `${params.eventId}.${seconds}.${params.body}`;
  const signatures = params.secrets.map((secret) => {
    const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), "base64");
    return `v1,${createHmac("sha256", key).update(signed).digest("base64")}`;
  });
  return {
    "X-Service-Signature": createHmac("sha256", newest).update(params.body).digest("hex"),
    "webhook-id": params.eventId,
    "webhook-timestamp": seconds,
    "webhook-signature": signatures.join(" "),
  };
}
