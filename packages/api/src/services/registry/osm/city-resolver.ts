import { placeNameForm, type Gazetteer, type GazetteerCity, type NearbyCity } from "@directory/db/gazetteer";
import { cityAlias } from "./city-aliases";
import { countryCodesAt } from "./country-of-point";

/** A business never lands in a city further than this from where the source puts it. */
export const MAX_CITY_KM = 25;

/** How many times the nearest place's population a city needs before it takes that place's businesses. */
export const LARGER_CITY_RATIO = 10;

/** The density that sets a city's reach (urbanReachKm): an ordinary built-up density. */
export const URBAN_PEOPLE_PER_KM2 = 10_000;

/**
 * How far from its centre a city of this population reaches: the radius of a disc holding its
 * people at URBAN_PEOPLE_PER_KM2 (Monaco, ~33,000 people: 1 km; a city of 600,000: 4.4 km).
 */
export function urbanReachKm(population: number): number {
  return Math.sqrt(Math.max(0, population) / URBAN_PEOPLE_PER_KM2 / Math.PI);
}

/**
 * The business's city, as a person who knows the place would file it; null when no city fits,
 * to be reported rather than guessed.
 *
 * 1. Only cities of the country the point is in (codesAt: countryCodesAt, or the extract's own
 *    borders drawn over it, country-boundaries.ts) within MAX_CITY_KM count: a business in Monaco
 *    is never filed in Beausoleil, France, however near. Out at sea, where no border says, any
 *    country's.
 * 2. `addr:city` naming one of those cities wins (nearest first, when two share the name), read
 *    through the district aliases ("Monte-Carlo" is Monaco: city-aliases.ts).
 * 3. Else the nearest of them, unless a city at least LARGER_CITY_RATIO times as populous reaches
 *    the point (urbanReachKm): then the most populous such city. GeoNames holds many
 *    neighbourhoods as places of their own (Butcher's Hill, 1,970 people, inside Baltimore), and
 *    the business is in the city they belong to. An inner suburb of a very large city that is a
 *    municipality of its own can be taken by the city too; its `addr:city` keeps it.
 */
export function resolveCity(
  gazetteer: Gazetteer,
  lat: number,
  lng: number,
  addrCity: string | null,
  codesAt: (lat: number, lng: number) => string[] = countryCodesAt,
): GazetteerCity | null {
  const nearby = inCountry(gazetteer.near(lat, lng, MAX_CITY_KM), codesAt(lat, lng));
  const named = addrCity ? cityNamed(nearby, addrCity) : undefined;
  if (named) return named;
  const nearest = nearby[0];
  if (!nearest) return null;
  let chosen = nearest.city;
  for (const { city, km } of nearby) {
    if (city.population >= LARGER_CITY_RATIO * nearest.city.population && city.population > chosen.population && km <= urbanReachKm(city.population))
      chosen = city;
  }
  return chosen;
}

/** The nearby cities of the point's own country: its territory's code first, else its country's. */
function inCountry(nearby: NearbyCity[], codes: readonly string[]): NearbyCity[] {
  if (codes.length === 0) return nearby;
  for (const code of codes) {
    const found = nearby.filter(({ city }) => city.countryCode === code);
    if (found.length > 0) return found;
  }
  return [];
}

/** The nearest of the cities that `addr:city` names, by its own name or as a district alias. */
function cityNamed(nearby: readonly NearbyCity[], addrCity: string): GazetteerCity | undefined {
  const wanted = placeNameForm(addrCity);
  const byName = nearby.find(({ city }) => placeNameForm(city.name) === wanted);
  if (byName) return byName.city;
  const alias = cityAlias(addrCity);
  if (!alias) return undefined;
  const aliasForm = placeNameForm(alias.city);
  return nearby.find(({ city }) => city.countryCode === alias.countryCode && placeNameForm(city.name) === aliasForm)?.city;
}
