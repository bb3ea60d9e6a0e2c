import { type JsonValue } from "./malformed-values";

/** What a fuzz case is, the seeded world it aims at, which values are valid there and which a door must refuse. */

/** Random cases per door, on top of the exhaustive matrices. */
export const RANDOM_CASES = { rest: 1_400, trpc: 1_100, mcp: 700 };

export type Door = "rest" | "trpc" | "mcp";

export interface FuzzCase {
  door: Door;
  method: string;
  /** Raw request target: path and query exactly as sent (escapes included). */
  target: string;
  headers: Record<string, string | string[]>;
  body?: string | Buffer;
  /** What the case is made of, e.g. "query category=nul" or "body bad-json". */
  kind: string;
  /** REST: the OpenAPI operation ("GET /entity/{id}") whose documented statuses apply; tRPC/MCP: procedure or method. */
  route: string;
  /** REST: the method is one the operation documents, so its status must be documented too. */
  documented?: boolean;
  /** A known input carries something every door must refuse (control character, lone surrogate, too deep, wrong type). */
  mustRefuse?: boolean;
  /** MCP notification (no id): 202 with no body is the protocol's answer. */
  notification?: boolean;
  /** A forged value the answer must not carry back (a count written into a cursor). */
  mustNotEcho?: string;
}

/**
 * The cases less those identical to an earlier one in what is sent and in how the answer is judged
 * (random picks repeat one another or an exhaustive case; "no input" and an empty body, or a bare
 * null input and a JSON null body, come out the same). The kind is only a label.
 */
export function distinctCases(cases: FuzzCase[]): FuzzCase[] {
  const seen = new Set<string>();
  return cases.filter((fuzzCase) => {
    const { door, method, target, route, body } = fuzzCase;
    const headers = Object.entries(fuzzCase.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    // Unset and false flags are judged alike (checks.ts).
    const judged = [!!fuzzCase.documented, !!fuzzCase.mustRefuse, !!fuzzCase.notification, fuzzCase.mustNotEcho ?? null];
    const sent = Buffer.isBuffer(body) ? ["buffer", body.toString("base64")] : (body ?? null);
    const key = JSON.stringify([door, method, target, route, headers, sent, judged]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export interface JsonSchemaProperty {
  type?: string | string[];
  maxLength?: number;
  enum?: unknown[];
}

/** mulberry32: small, fast and the same on every machine. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (maxExclusive: number) => Math.floor(next() * maxExclusive),
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(next() * items.length)] as T;
    },
    chance: (probability: number) => next() < probability,
  };
}
export type Random = ReturnType<typeof createRandom>;

/** A listing of the seeded world that no case's baseline asks for, with the parameters that ask for it and its first page's nextCursor. */
export interface PagedListing {
  name: string;
  params: Record<string, string | number>;
  cursor: string;
}

export interface World {
  slug: string;
  id: string;
  category: string;
  city: string;
  keys: { admin: string; partner: string; developer: string; business: string };
  /** Listings of another category than `category`, to forge cursors from and to send where they do not belong. */
  listings: PagedListing[];
  /** A servable business outside every one of `listings`. */
  outsiderId: string;
}

/** A valid value for a field the fuzz cases know, else undefined. */
export const knownJsonFor = (field: string, world: World): unknown =>
  (
    ({
      category: world.category,
      city: world.city,
      slug: world.slug,
      slugA: world.slug,
      slugB: world.slug,
      id: world.id,
      query: "dental",
      limit: 5,
      // Loopback only (the test server allows it, and runs no delivery worker): nothing leaves the machine.
      url: "http://127.0.0.1:9/fuzz",
      events: ["entity.updated"],
    }) as Record<string, unknown>
  )[field];

export const validJsonFor = (field: string, world: World): unknown => knownJsonFor(field, world) ?? "x";

const jsonTypeOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value);

function fitsType(schema: JsonSchemaProperty, value: unknown): boolean {
  if (schema.type === undefined) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const actual = jsonTypeOf(value);
  return types.some((type) => type === actual || (type === "number" && actual === "integer"));
}

/** Whether a value must be refused in a field with this advertised schema. */
export function mustRefuseValue(schema: JsonSchemaProperty | undefined, value: JsonValue): boolean {
  if (value.refuse) return true;
  if (!schema) return false;
  if (!fitsType(schema, value.value)) return true;
  if (typeof value.value === "string" && schema.maxLength !== undefined && value.value.length > schema.maxLength) return true;
  return schema.enum !== undefined && !schema.enum.includes(value.value);
}
