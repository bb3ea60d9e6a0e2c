import { iso1A2Code } from "@rapideditor/country-coder";

/**
 * The ISO 3166-1 alpha-2 codes a point lies in, the most specific first: the territory's own code
 * where it has one, then its country's ("GG", "GB" in Guernsey; "MC" alone in Monaco). GeoNames
 * files most territories under their own code (Guernsey, Puerto Rico, Réunion) but a few under
 * the country's (Ceuta under ES, where the borders say EA), so a city is looked for under each in
 * turn. Empty out at sea beyond territorial waters, where no border says.
 *
 * The borders are @rapideditor/country-coder's (ISC; offline, from the iD editor): drawn for
 * deciding which country a map point is in, which is the question here.
 */
export function countryCodesAt(lat: number, lng: number): string[] {
  const codes: string[] = [];
  for (const level of ["territory", "country"]) {
    const code = iso1A2Code([lng, lat], { level });
    if (code && !codes.includes(code)) codes.push(code);
  }
  return codes;
}
