import { INSTANT_VALUES } from "./malformed-values";
import { createRandom, knownJsonFor, type FuzzCase, type PagedListing, type World } from "./model";

/*
 * Values for the parameters whose meaning a generic malformed value never reaches: the instants a
 * caller names (openAt, asOf) and the cursors that continue a listing. Malformed and forged ones
 * must be refused with a 4xx on every door, the others answered without a 5xx. A cursor forged
 * from a real one goes with its own listing's parameters, so what is judged is the forgery (an
 * offset of 2^63, a business of another listing, an edited count), not a mismatch with whatever
 * the case's baseline asks for; as issued, it also goes with the baseline: another listing's cursor.
 */

export interface NamedValue {
  kind: string;
  value: string;
  /** The inputs it goes with instead of the case's baseline; empty: the baseline. */
  with: Record<string, string | number>;
  refuse: boolean;
  /** Sent with a key too: without one the parameter is refused before it is read (asOf). */
  keyed?: boolean;
  /** A forged value the answer must not carry back. */
  mustNotEcho?: string;
}

/** A count no listing of the seeded world reaches: written into a cursor, it must not come back. */
const FORGED_COUNT = 987_654_321;
const CURSOR_SEED = 0xc0_25_02;

function namedValues(field: string, world: World): NamedValue[] {
  if (field === "openAt") return openAtValues(world);
  if (field === "asOf") return INSTANT_VALUES.map((instant) => ({ ...instant, with: {}, keyed: true }));
  if (field === "cursor") return cursorValues(world);
  return [];
}

/**
 * The cases of one door's field: each named value whose companions the door takes (`fields`: its
 * parameter names), sent without a key and, when the value needs one, with the developer key.
 * `inputs` are the other inputs to send: the value's companions, or else every field with a known
 * valid value (so the field under test is read, not refused for a missing one); `kind` names the
 * case and `extra` is what the door adds to it.
 */
export function namedCases(field: string, fields: readonly string[], world: World) {
  const known: Record<string, string | number> = {};
  for (const name of fields) {
    const value = name === field ? undefined : knownJsonFor(name, world);
    if (typeof value === "string" || typeof value === "number") known[name] = value;
  }
  return namedValues(field, world)
    .filter((named) => Object.keys(named.with).every((name) => fields.includes(name)))
    .flatMap((named) =>
      (named.keyed ? [null, world.keys.developer] : [null]).map((key) => ({
        value: named.value,
        inputs: Object.keys(named.with).length > 0 ? named.with : known,
        kind: `${field}=${named.kind}${key ? " auth-developer" : ""}`,
        extra: {
          mustRefuse: named.refuse,
          ...(named.mustNotEcho ? { mustNotEcho: named.mustNotEcho } : {}),
          ...(key ? { headers: { authorization: `Bearer ${key}` } } : {}),
        } satisfies Partial<FuzzCase>,
      })),
    );
}

/**
 * openAt with the case's baseline, and with the parameters of each listing that has matches: an
 * instant reaches the open filter only where there is something to filter.
 */
function openAtValues(world: World): NamedValue[] {
  const scopes = new Map<string, { name: string; params: Record<string, string | number> }>([["{}", { name: "baseline", params: {} }]]);
  for (const listing of world.listings) if (!("openAt" in listing.params)) scopes.set(JSON.stringify(listing.params), listing);
  return [...scopes.values()].flatMap((scope) =>
    INSTANT_VALUES.map((instant) => ({ ...instant, kind: `${instant.kind} on ${scope.name}`, with: scope.params })),
  );
}

const encode = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString("base64url");

function cursorValues(world: World): NamedValue[] {
  // Its own generator: the cases' shared one keeps drawing what it drew before these existed.
  const random = createRandom(CURSOR_SEED);
  const randomBytes = () => Buffer.from(Array.from({ length: 1 + random.int(64) }, () => random.int(256))).toString("base64url");
  const garbage = [
    ...Array.from({ length: 4 }, (_, index) => ({ kind: `cursor random base64 ${index + 1}`, value: randomBytes() })),
    { kind: "cursor base64 of []", value: encode([]) },
    { kind: "cursor base64 of an object", value: encode({ offset: 1 }) },
    { kind: "cursor base64 of null", value: encode(null) },
    { kind: "cursor of 1,001 characters", value: "A".repeat(1_001) },
  ];
  return [...garbage.map((value) => ({ ...value, with: {}, refuse: true })), ...world.listings.flatMap((listing) => forgeries(listing, world.outsiderId))];
}

/** A listing's cursor as issued, sent to another listing, and edited every way a caller could. */
function forgeries(listing: PagedListing, outsiderId: string): NamedValue[] {
  const parts = JSON.parse(Buffer.from(listing.cursor, "base64url").toString("utf8")) as unknown[];
  const [position, count, ...rest] = parts;
  const own = (kind: string, edited: unknown[], refuse = true): NamedValue => ({
    kind: `${listing.name} cursor ${kind}`,
    value: encode(edited),
    with: listing.params,
    refuse,
  });
  const values: NamedValue[] = [
    { kind: `${listing.name} cursor as issued`, value: listing.cursor, with: listing.params, refuse: false },
    { kind: `${listing.name} cursor on another listing`, value: listing.cursor, with: {}, refuse: true },
    own("count past 2^53", [position, 2 ** 63, ...rest]),
    own("one part short", parts.slice(0, -1)),
    own("one part more", [...parts, 0]),
    { ...own("forged count", [position, FORGED_COUNT, ...rest], false), mustNotEcho: String(FORGED_COUNT) },
  ];
  // An open-filtered ranked cursor's fourth part, the count left out for unknown hours.
  if (parts.length === 4) values.push({ ...own("forged excluded count", [position, count, rest[0], FORGED_COUNT], false), mustNotEcho: String(FORGED_COUNT) });
  if (typeof position === "number") {
    for (const offset of [2 ** 63, 2 ** 64, 2 ** 53 + 2, 1_000_000, -1, 1.5, "1"]) values.push(own(`offset ${offset}`, [offset, count, ...rest]));
  } else {
    values.push(own("naming a business outside its listing", [outsiderId, count, ...rest]), own("naming no business", ["x", count, ...rest]));
  }
  return values;
}

/** The listings of a category in a city (any other than the baselines' one) that have a second page, each with its first page's nextCursor. */
export async function pagedListings(
  baseUrl: string,
  other: { category: string; categoryName: string; city: string; lat: number; lng: number; openAt: string },
): Promise<PagedListing[]> {
  const { category, city } = other;
  const near = `${other.lat},${other.lng}`;
  const candidates: { name: string; path: string; params: Record<string, string | number> }[] = [
    { name: "category search", path: "/api/v2/category-search", params: { category, city, limit: 1 } },
    { name: "open category search", path: "/api/v2/category-search", params: { category, city, openAt: other.openAt, limit: 1 } },
    { name: "search near a point", path: "/api/v2/category-search", params: { category, near, limit: 1 } },
    { name: "keyword search", path: "/api/v2/keyword-search", params: { query: other.categoryName, limit: 1 } },
    { name: "cities", path: "/api/v2/cities", params: { category, limit: 1 } },
    { name: "listicle", path: "/api/v2/listicle", params: { category, city, limit: 1 } },
  ];
  const listings: PagedListing[] = [];
  for (const candidate of candidates) {
    const query = new URLSearchParams(Object.entries(candidate.params).map(([name, value]): [string, string] => [name, String(value)]));
    const response = await fetch(`${baseUrl}${candidate.path}?${query}`);
    const body = (await response.json()) as { nextCursor?: string | null };
    if (!response.ok || !body.nextCursor) throw new Error(`${candidate.name} of ${category} in ${city} has no second page to forge cursors from`);
    listings.push({ name: candidate.name, params: candidate.params, cursor: body.nextCursor });
  }
  return listings;
}
