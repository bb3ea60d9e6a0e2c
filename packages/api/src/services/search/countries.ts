import { normalizeTerm } from "./reference-data";

/*
 * Countries as searches take them: ISO 3166-1 alpha-2 codes, upper case as listings carry them
 * (a business's country is its city's country_code), and the English names a query may say
 * ("hotel liechtenstein"), from the runtime's own region names (Intl.DisplayNames) so no table of
 * names is kept here.
 */

/** Every officially assigned ISO 3166-1 alpha-2 code (249): user-assigned and reserved codes (EU, XK, ZZ, UK) are not countries here. */
const ISO_3166_ALPHA2 = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM " +
    "CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY " +
    "HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF " +
    "MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE " +
    "RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ " +
    "VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
  ).split(" "),
);

/** True for an assigned ISO 3166-1 alpha-2 code, in upper case. */
export function isCountryCode(code: string): boolean {
  return ISO_3166_ALPHA2.has(code);
}

/** Names people type that the runtime's English names do not give. */
const COUNTRY_ALIASES: Record<string, string> = {
  usa: "US",
  "united states of america": "US",
  america: "US",
  uk: "GB",
  britain: "GB",
  "great britain": "GB",
  turkey: "TR",
  "czech republic": "CZ",
  holland: "NL",
};

let countriesByName: Map<string, string> | null = null;

/** normalizeTerm(English name) -> code; "St." names also without the dot, "&" also as "and". */
function namesOfCountries(): Map<string, string> {
  if (countriesByName) return countriesByName;
  const names = new Map(Object.entries(COUNTRY_ALIASES));
  const display = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  for (const code of ISO_3166_ALPHA2) {
    const name = display.of(code);
    if (!name) continue;
    for (const form of [name, name.replace(/\s*\(.*\)\s*/g, " "), name.replace(/&/g, "and"), name.replace(/^St\. /, "Saint ")]) {
      const key = normalizeTerm(form);
      if (key && !names.has(key)) names.set(key, code);
    }
  }
  return (countriesByName = names);
}

/** The country a phrase names ("liechtenstein", "united kingdom"), as its code; null when it names none. */
export function findCountry(phrase: string): string | null {
  return namesOfCountries().get(normalizeTerm(phrase)) ?? null;
}
