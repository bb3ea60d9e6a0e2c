import { placeNameForm } from "@directory/db/gazetteer";

/** The gazetteer city a district belongs to: its name as the gazetteer spells it, and its country. */
export interface CityAlias {
  city: string;
  countryCode: string;
}

/*
 * Districts and villages that people write as their `addr:city` but that the gazetteer does not
 * hold as cities (GeoNames keeps Monaco's quarters as city sections, which are excluded, and has
 * no row for villages under 1,000 people), each with the city a local files them in. An alias
 * only applies where that city is within reach of the business (city-resolver.ts), so a
 * same-named place elsewhere is untouched. Keep it small: add a row when an import reports a
 * district filed in the wrong city, with the municipality it belongs to.
 */
const ALIASES: Readonly<Record<string, CityAlias>> = {
  // Monaco's quarters: the principality is one city.
  "Monte-Carlo": { city: "Monaco", countryCode: "MC" },
  "Monte Carlo": { city: "Monaco", countryCode: "MC" },
  "Monaco-Ville": { city: "Monaco", countryCode: "MC" },
  "La Condamine": { city: "Monaco", countryCode: "MC" },
  Fontvieille: { city: "Monaco", countryCode: "MC" },
  Moneghetti: { city: "Monaco", countryCode: "MC" },
  "Saint-Roman": { city: "Monaco", countryCode: "MC" },
  // Andorra: the parish's official name, where GeoNames names the town.
  "Escaldes-Engordany": { city: "les Escaldes", countryCode: "AD" },
  // Liechtenstein: villages of a municipality.
  Nendeln: { city: "Eschen", countryCode: "LI" },
  Schaanwald: { city: "Mauren", countryCode: "LI" },
  Malbun: { city: "Triesenberg", countryCode: "LI" },
  Steg: { city: "Triesenberg", countryCode: "LI" },
};

const BY_FORM: ReadonlyMap<string, CityAlias> = new Map(Object.entries(ALIASES).map(([name, alias]) => [placeNameForm(name), alias]));

/** The city a district name stands for, or undefined when it is no known district. */
export function cityAlias(addrCity: string): CityAlias | undefined {
  return BY_FORM.get(placeNameForm(addrCity));
}
