import { sql } from "drizzle-orm";
import { categories, cities, perDatabase, rowsOf, type Category, type City, type Db } from "@directory/db";

/**
 * Reference data (categories with their synonyms, cities with their aliases) is small, hot and
 * rarely changed, so each process holds it in memory per database handle and a search resolves its
 * category and city without a round trip.
 *
 * Staleness bound: a request is served from data confirmed current at most
 * REFERENCE_DATA_RECHECK_MS ago. When that time has passed, the next request re-reads one
 * fingerprint row (md5 over both tables) before it resolves anything, and reloads both tables only
 * when the fingerprint changed. A change made by any instance, or by hand in SQL, is therefore
 * seen by every instance within that bound; no trigger or migration is needed for it.
 * invalidateReferenceData(db) makes the next request re-check at once (for writers in this process).
 */
export const REFERENCE_DATA_RECHECK_MS = 5_000;

export interface ReferenceData {
  fingerprint: string;
  /** By slug order, as the SQL resolver ordered ties. */
  categories: Category[];
  /** lower(name), and the search form (normalizeTerm) of its name, every alias and its slug -> cities, most populous first. */
  citiesByName: Map<string, City[]>;
}

interface Holder {
  data: ReferenceData | null;
  checkedAt: number;
  pending: Promise<ReferenceData> | null;
}

const holders = perDatabase((): Holder => ({ data: null, checkedAt: 0, pending: null }));

const fingerprintQuery = sql<{ fingerprint: string }>`select
  (select md5(coalesce(string_agg(c::text, '|' order by c.slug), '')) from ${categories} c) ||
  (select md5(coalesce(string_agg(t::text, '|' order by t.id), '')) from ${cities} t) as fingerprint`;

async function readFingerprint(db: Db): Promise<string> {
  const result = await db.execute<{ fingerprint: string }>(fingerprintQuery);
  return rowsOf<{ fingerprint: string }>(result)[0]?.fingerprint ?? "";
}

async function load(db: Db, fingerprint: string): Promise<ReferenceData> {
  const [categoryRows, cityRows] = await Promise.all([db.select().from(categories).orderBy(categories.slug), db.select().from(cities)]);
  return indexReferenceData(fingerprint, categoryRows, cityRows);
}

/** The lookup structures over loaded rows; categories must come in slug order. */
export function indexReferenceData(fingerprint: string, categoryRows: Category[], cityRows: City[]): ReferenceData {
  const citiesByName = new Map<string, City[]>();
  const add = (key: string, city: City) => {
    const list = citiesByName.get(key);
    if (list) {
      if (!list.includes(city)) list.push(city);
    } else citiesByName.set(key, [city]);
  };
  for (const city of cityRows) {
    add(city.name.toLowerCase(), city);
    // Imported cities carry no aliases, so the name's search form ("cap d'ail") is indexed for every city.
    for (const form of [city.name, ...city.aliases, city.slug]) add(normalizeTerm(form), city);
  }
  for (const list of citiesByName.values()) list.sort((a, b) => b.population - a.population || a.id - b.id);
  return { fingerprint, categories: categoryRows, citiesByName };
}

async function refresh(db: Db, holder: Holder): Promise<ReferenceData> {
  const fingerprint = await readFingerprint(db);
  const data = holder.data?.fingerprint === fingerprint ? holder.data : await load(db, fingerprint);
  holder.data = data;
  holder.checkedAt = Date.now();
  return data;
}

/** The reference data for this database, re-checked when older than REFERENCE_DATA_RECHECK_MS. */
export async function referenceData(db: Db): Promise<ReferenceData> {
  const holder = holders.get(db);
  if (holder.data && Date.now() - holder.checkedAt < REFERENCE_DATA_RECHECK_MS) return holder.data;
  if (holder.pending) return holder.pending;
  const current = holder;
  const pending = refresh(db, current).finally(() => {
    current.pending = null;
  });
  current.pending = pending;
  return pending;
}

/** The next request on this database re-checks the fingerprint instead of waiting out the bound. */
export function invalidateReferenceData(db: Db): void {
  holders.get(db).checkedAt = 0;
}

/** Accepts plurals, synonyms, slugs and any case: "Dentists", "dental clinic", "car-repair". */
export function findCategory(data: ReferenceData, input: string): Category | null {
  const forms = singularForms(normalizeTerm(input));
  if (forms[0] === "") return null;
  // A direct name match beats a synonym of another category; ties go to the first slug.
  const byName = data.categories.find((c) => forms.includes(c.slug.replaceAll("-", " ")) || forms.includes(c.name.toLowerCase()));
  return byName ?? data.categories.find((c) => c.synonyms.some((synonym) => forms.includes(synonym))) ?? null;
}

/**
 * A city as written: its name, alias or slug in any case, with or without accents ("bangalore",
 * "Sao Paulo", "vaduz-li"), optionally followed by ", CC" (ISO country code: "Cap-d'Ail, FR").
 */
export function cityInputParts(input: string): { name: string; countryCode: string | null } {
  const parts = input.split(",");
  const last = parts.length > 1 ? parts[parts.length - 1]!.trim().toUpperCase() : "";
  return { name: normalizeTerm(parts[0] ?? ""), countryCode: /^[A-Z]{2}$/.test(last) ? last : null };
}

/** Every city the input's name, alias or slug names, whatever its country code says; most populous first. */
export function citiesNamed(data: ReferenceData, input: string): City[] {
  const { name } = cityInputParts(input);
  return name === "" ? [] : (data.citiesByName.get(name) ?? []);
}

/**
 * The city an input names (cityInputParts): ambiguous names pick the most populous city, a country
 * code keeps only that country's cities, and so does `country` (upper-case ISO code, a search's
 * country filter). One resolver for every door and the admin CLI.
 */
export function findCity(data: ReferenceData, input: string, country?: string | null): City | null {
  const { countryCode } = cityInputParts(input);
  const candidates = citiesNamed(data, input).filter(
    (city) => (!countryCode || city.countryCode === countryCode) && (!country || city.countryCode === country),
  );
  return candidates[0] ?? null;
}

/** Lower-case, accents folded, hyphens/underscores as spaces, single spaces: "São-Paulo " -> "sao paulo". */
export function normalizeTerm(input: string): string {
  return input
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[-_]+/g, " ")
    .replace(/[^\p{L}\p{N}&' ]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The term and its plausible singulars, last word only: "dental clinics" -> "dental clinic". */
export function singularForms(term: string): string[] {
  const forms = new Set([term]);
  const words = term.split(" ");
  const last = words.pop() ?? "";
  const head = words.length > 0 ? `${words.join(" ")} ` : "";
  if (last.endsWith("ies") && last.length > 4) forms.add(`${head}${last.slice(0, -3)}y`);
  if (/(s|x|z|ch|sh)es$/.test(last)) forms.add(`${head}${last.slice(0, -2)}`);
  if (last.endsWith("s") && !last.endsWith("ss") && last.length > 3) forms.add(`${head}${last.slice(0, -1)}`);
  return [...forms];
}
