import { z } from "zod";
import { DomainError } from "../../errors";
import { isoInstant } from "../shared/instants";

/*
 * The where-when parameters as every door takes them (issue 23 names them): the doors build their
 * input schemas from these, as they do from claim-values.ts, so a malformed value is refused with
 * a 400 naming the parameter (zod's issue path) before it reaches a service.
 */

/** Default radius of a near search, in km. */
export const NEAR_RADIUS_DEFAULT_KM = 5;
/** Largest radius a near search takes, in km (Google Places' circle allows 50 km, Yelp 40 km). */
export const NEAR_RADIUS_MAX_KM = 50;
/** Most businesses one near query returns (a page of a radius search, or nearest-N). */
export const NEAR_LIMIT_MAX = 50;
/** A radius search counts its matches up to this many (then says totalMatchesCapped); also the deepest offset. */
export const NEAR_COUNT_CAP = 500;
/**
 * How far past a page's start a radius search counts, within NEAR_COUNT_CAP: a page at offset 0
 * counts up to 100, one at offset 100 up to 200. Each match counted is an index entry and a
 * distance (1 km around Shanghai's centre at 1M holds 840 in its box): counting 500 on every first
 * page was 60% of a radius search's database time, for a number no caller of page one needs exact.
 */
export const NEAR_COUNT_AHEAD = 100;

/** A point in decimal degrees. */
export interface NearPoint {
  lat: number;
  lng: number;
}

const ZLat = z.number().min(-90, "latitude from -90 to 90").max(90, "latitude from -90 to 90");
const ZLng = z.number().min(-180, "longitude from -180 to 180").max(180, "longitude from -180 to 180");
const ZPoint = z.object({ lat: ZLat, lng: ZLng }).strict();
const DECIMAL = "[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)";
const NEAR_TEXT = new RegExp(`^\\s*(${DECIMAL})\\s*,\\s*(${DECIMAL})\\s*$`);

/** "52.52,13.405" -> { lat: 52.52, lng: 13.405 }; null when it is not two decimal numbers (range not checked). */
export function parseNearText(text: string): NearPoint | null {
  const match = NEAR_TEXT.exec(text);
  return match ? { lat: Number(match[1]), lng: Number(match[2]) } : null;
}

/**
 * A latitude outside -90..90 that is a valid longitude, beside a longitude that is a valid latitude:
 * the two given the other way round (lng,lat is GeoJSON's order), said with the point meant.
 */
function swappedCoordinates(point: { lat: unknown; lng: unknown }): string | null {
  const { lat, lng } = point;
  if (typeof lat !== "number" || typeof lng !== "number") return null;
  if (Math.abs(lat) <= 90 || Math.abs(lat) > 180 || Math.abs(lng) > 90) return null;
  return `latitude ${lat} is outside -90 to 90 but is a valid longitude: the coordinates look swapped. near is latitude first, "<lat>,<lng>": did you mean "${lng},${lat}"?`;
}

/**
 * `near`: "<lat>,<lng>" in decimal degrees on REST, { lat, lng } elsewhere; latitude -90..90,
 * longitude -180..180. Parsed to a NearPoint.
 */
export const ZNearParam = z
  // Ranges are checked after the transform (pipe), so a swapped pair is named as swapped first.
  .union([z.object({ lat: z.number(), lng: z.number() }).strict(), z.string().max(64)])
  .transform((value, context): NearPoint => {
    const point = typeof value === "string" ? parseNearText(value) : value;
    if (!point) {
      context.addIssue({ code: "custom", message: 'a point as "<lat>,<lng>" in decimal degrees, e.g. "52.5200,13.4050"' });
      return z.NEVER;
    }
    const swapped = swappedCoordinates(point);
    if (swapped) {
      context.addIssue({ code: "custom", message: swapped });
      return z.NEVER;
    }
    return point;
  })
  .pipe(ZPoint)
  .meta({
    description: '"<lat>,<lng>": search around that point',
    override: ({ jsonSchema }) => {
      delete jsonSchema.anyOf;
      Object.assign(jsonSchema, { type: "string", pattern: `^${DECIMAL},${DECIMAL}$`, example: "52.5200,13.4050" });
    },
  });

/**
 * `radiusKm`: above 0, at most NEAR_RADIUS_MAX_KM; needs `near`. Optional rather than defaulted in
 * zod, so a radius given without near can be refused (readWhereWhen); the default applies there
 * and is stated in the schema (OpenAPI `default`).
 */
export const ZRadiusKmParam = z
  .number()
  .gt(0, "a radius above 0 km")
  .max(NEAR_RADIUS_MAX_KM, `at most ${NEAR_RADIUS_MAX_KM} km`)
  .meta({
    description: `km around near, at most ${NEAR_RADIUS_MAX_KM}`,
    default: NEAR_RADIUS_DEFAULT_KM,
    example: 2,
  })
  .optional();

const OPEN_AT_DESCRIPTION = "Only those open at this ISO 8601 instant";
const OPEN_AT_EXAMPLE = "2026-05-10T09:30:00+02:00";

/** `openAt`: an ISO 8601 date-time with Z or an offset, past or future (isoInstant). */
export const ZOpenAtParam = isoInstant('an ISO 8601 date-time with Z or an offset, e.g. "2026-05-10T09:30:00+02:00"')
  .meta({
    description: OPEN_AT_DESCRIPTION,
    example: OPEN_AT_EXAMPLE,
    // The date-time format's own pattern is unreadable in a reference; the format says it.
    override: ({ jsonSchema }) => {
      delete jsonSchema.pattern;
    },
  })
  .optional();

/** `openNow`: true keeps businesses open now (server clock); a real boolean, or "true"/"false" on REST. */
export const ZOpenNowParam = z
  .union([z.boolean(), z.stringbool({ truthy: ["true"], falsy: ["false"] })])
  .pipe(z.boolean())
  .meta({
    description: "true: only those open now",
    override: ({ jsonSchema }) => {
      delete jsonSchema.anyOf;
      Object.assign(jsonSchema, { type: "string", enum: ["true", "false"], example: "true" });
    },
  })
  .optional();

/** The instant an open filter or a listing's openNow refers to: openAt, else now when openNow, else none. */
export function requestedInstant(params: { openAt?: string | null; openNow?: boolean | null }, now: () => Date = () => new Date()): Date | null {
  if (params.openAt) return new Date(params.openAt);
  return params.openNow ? now() : null;
}

/** A 400 naming the parameter, in the words zod's refusals use ("Invalid parameter sort: ..."). */
export function invalidParameter(parameter: string, reason: string): DomainError {
  return new DomainError("INVALID_INPUT", `Invalid parameter ${parameter}: ${reason}`, { parameter });
}

/** The rules between parameters: sort=distance and radiusKm need near. Throws a 400 naming the parameter. */
export function checkNearParameters(params: { near?: NearPoint | null; sort?: string | null; radiusKmGiven?: boolean }): void {
  if (params.near) return;
  if (params.sort === "distance") throw invalidParameter("sort", "distance orders by distance from near: give near=<lat>,<lng>");
  if (params.radiusKmGiven) throw invalidParameter("radiusKm", "a radius is around near: give near=<lat>,<lng>");
}

/** The where-when parameters of a search, as its input schema takes them (every door builds on these). */
export const whereWhenInput = {
  openNow: ZOpenNowParam,
  openAt: ZOpenAtParam,
  near: ZNearParam.optional(),
  radiusKm: ZRadiusKmParam,
};

/** What a search's input holds of the where-when parameters, parsed. */
export interface WhereWhenInput {
  openNow?: boolean | undefined;
  openAt?: string | undefined;
  near?: NearPoint | undefined;
  radiusKm?: number | undefined;
}

/** The where-when part of one search, read once from its input. */
export interface WhereWhen {
  /** The instant an open filter keeps businesses open at (and listings' openNow refers to); null: no open filter. */
  at: Date | null;
  /** What identifies the open filter in a cursor: the openAt text, "now" for openNow, null for none. */
  openKey: string | null;
  /** The circle to search in; null: no near. */
  near: { point: NearPoint; radiusKm: number } | null;
}

/** True when the search names neither a time nor a point: the plain (and fastest) path answers it. */
export function isPlain(whereWhen: WhereWhen): boolean {
  return whereWhen.at === null && whereWhen.near === null;
}

/**
 * The where-when part of a search's input, with the rules between parameters checked (a 400
 * naming the parameter): sort=distance and radiusKm need near.
 */
export function readWhereWhen(input: WhereWhenInput & { sort?: string | undefined }, now: () => Date = () => new Date()): WhereWhen {
  checkNearParameters({ near: input.near, sort: input.sort, radiusKmGiven: input.radiusKm !== undefined });
  const at = requestedInstant(input, now);
  return {
    at,
    openKey: input.openAt ?? (at ? "now" : null),
    near: input.near ? { point: input.near, radiusKm: input.radiusKm ?? NEAR_RADIUS_DEFAULT_KM } : null,
  };
}
