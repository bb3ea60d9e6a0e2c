/** What the service's RateLimit headers (IETF draft fields) said about the caller's quota. */
export interface RateLimitState {
  /** The policy's name, e.g. "anonymous-minute" or "partner-month". */
  policy: string;
  /** Requests the window allows, when RateLimit-Policy was sent. */
  limit: number | undefined;
  /** Requests left in the current window. */
  remaining: number;
  /** When the window resets. */
  resetAt: Date;
}

/** Reads `RateLimit: "name";r=12;t=30` and `RateLimit-Policy: "name";q=60;w=60`, if present. */
export function rateLimitFrom(headers: Headers, now = Date.now()): RateLimitState | null {
  const field = headers.get("ratelimit");
  if (!field) return null;
  const params = parameters(field);
  const remaining = Number(params.get("r"));
  const reset = Number(params.get("t"));
  if (!Number.isFinite(remaining) || !Number.isFinite(reset)) return null;
  const policyField = headers.get("ratelimit-policy");
  const quota = policyField ? Number(parameters(policyField).get("q")) : Number.NaN;
  return {
    policy: params.get("") ?? "",
    limit: Number.isFinite(quota) ? quota : undefined,
    remaining,
    resetAt: new Date(now + reset * 1000),
  };
}

/** The parameters of the first item of a structured field; the item's own name is under "". */
function parameters(field: string): Map<string, string> {
  const [name = "", ...rest] = field
    .split(",")[0]!
    .split(";")
    .map((part) => part.trim());
  const result = new Map<string, string>([["", name.replace(/^"|"$/g, "")]]);
  for (const part of rest) {
    const [key, value = ""] = part.split("=");
    if (key) result.set(key.trim(), value.trim().replace(/^"|"$/g, ""));
  }
  return result;
}
