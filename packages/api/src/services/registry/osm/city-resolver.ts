import { placeNameForm, type Gazetteer, type GazetteerCity } from "@directory/db/gazetteer";

/** A business never lands in a city further than this from where the source puts it. */
export const MAX_CITY_KM = 25;

/**
 * The business's city: the gazetteer city that `addr:city` names, when one of that name is within
 * MAX_CITY_KM (a same-named city elsewhere does not count); else the nearest city within
 * MAX_CITY_KM; else null, to be reported rather than guessed.
 */
export function resolveCity(gazetteer: Gazetteer, lat: number, lng: number, addrCity: string | null): GazetteerCity | null {
  const nearby = gazetteer.near(lat, lng, MAX_CITY_KM);
  if (addrCity) {
    const wanted = placeNameForm(addrCity);
    // Nearest first, so of two same-named places within reach the closer wins.
    const named = nearby.find(({ city }) => placeNameForm(city.name) === wanted);
    if (named) return named.city;
  }
  return nearby[0]?.city ?? null;
}
