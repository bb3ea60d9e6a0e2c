import type { Request, Response } from "express";
import { escapeHtml, queryString } from "../html";
import { sendErrorPage, type PageCallers } from "./errors";
import { attributionLines, browseHref, layout, listingItem, searchForms } from "./layout";

export const BROWSE_PAGE_SIZE = 10;
const MAX_PAGE = 100_000;

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/** The page number shown (the cursor says where the page starts); null when it is not one. */
function pageNumber(value: unknown): number | null {
  if (value === undefined || value === "") return 1;
  const raw = text(value);
  if (!/^\d{1,6}$/.test(raw)) return null;
  const page = Number(raw);
  return page >= 1 && page <= MAX_PAGE ? page : null;
}

/** A browse search as its links carry it: every page link keeps all of it. */
interface BrowseSearch {
  category: string;
  city: string;
  /** An ISO 3166-1 alpha-2 code as sent; the procedure checks it (a 400 naming country). */
  country: string;
  /** "lat,lng" as sent; the procedure checks it (a 400 naming near). */
  near: string;
  radiusKm: string;
  openNow: boolean;
}

function searchHref(search: BrowseSearch, cursor?: string, page?: number): string {
  const { category, city, country, near, radiusKm, openNow } = search;
  return `/browse${queryString({ category, city, country: country || undefined, near, radiusKm, openNow: openNow ? "true" : undefined, cursor, page })}`;
}

/**
 * Keyset paging (search.lookupBusinesses' nextCursor): forward by cursor, back to the first page,
 * and one step back from page 2; the browser's back button covers the rest.
 */
function pager(search: BrowseSearch, page: number, pages: number, nextCursor: string | null): string {
  const items: string[] = [];
  if (page === 2) items.push(`<li><a rel="prev" href="${escapeHtml(searchHref(search))}">Previous</a></li>`);
  else if (page > 2) items.push(`<li><a rel="first" href="${escapeHtml(searchHref(search))}">First page</a></li>`);
  items.push(`<li><span aria-current="page">Page ${page} of ${Math.max(pages, page)}</span></li>`);
  if (nextCursor) items.push(`<li><a rel="next" href="${escapeHtml(searchHref(search, nextCursor, page + 1))}">Next</a></li>`);
  return pages > 1 || page > 1 ? `<nav aria-label="Result pages"><ul class="pager">${items.join("")}</ul></nav>` : "";
}

/** A checkbox sends "true" (or "on" from a hand-made form); anything else is unchecked. */
function checked(value: unknown): boolean {
  return value === "true" || value === "on";
}

export async function browsePage(req: Request, res: Response, { caller, extras, baseUrl }: PageCallers): Promise<void> {
  const search: BrowseSearch = {
    category: text(req.query.category),
    city: text(req.query.city),
    country: text(req.query.country),
    near: text(req.query.near),
    radiusKm: text(req.query.radiusKm),
    openNow: checked(req.query.openNow),
  };
  const { category, city, country, near, openNow } = search;
  const formValues = { category, city, country, near, openNow };
  const cursor = text(req.query.cursor) || undefined;
  const page = pageNumber(req.query.page);
  if ((!near && (!category || (!city && !country))) || page === null || (page > 1 && !cursor)) {
    const problem =
      page === null || (page > 1 && !cursor)
        ? "That page link is not valid; start from the first page."
        : "Choose a category and a city (or a country), or a place to search near (category and city are then optional).";
    const main = `<h1>Browse the directory</h1><p>${escapeHtml(problem)}</p>${searchForms(formValues)}`;
    res
      .status(400)
      .type("html")
      .send(layout({ title: "Browse the directory", noindex: true }, main));
    return;
  }
  try {
    const radiusKm = search.radiusKm === "" ? undefined : Number(search.radiusKm);
    const result = await caller.search.lookupBusinesses({
      category: category || undefined,
      city: city || undefined,
      country: country || undefined,
      limit: BROWSE_PAGE_SIZE,
      cursor,
      openNow: openNow || undefined,
      near: near || undefined,
      // Not a number: sent as NaN, refused by the procedure with a 400 naming radiusKm.
      radiusKm,
      // Near a point, a person asks for the nearest first (ties in the spec's ranking).
      sort: near ? "distance" : undefined,
    });
    const found = { category: result.category, city: result.city };
    const cityLabel = found.city ? `${found.city.name}, ${found.city.country}` : "";
    const what = found.category?.name ?? "Businesses";
    const where = found.city ? ` in ${found.city.name}` : country ? ` in ${country.toUpperCase()}` : "";
    const heading = `${openNow ? "Open now: " : ""}${what}${where}${near ? ` near ${near}` : ""}`;
    const first = (page - 1) * BROWSE_PAGE_SIZE + 1;
    const pages = Math.ceil(result.totalMatches / BROWSE_PAGE_SIZE);
    const items = result.businesses.map((listing) => listingItem(listing)).join("");
    const excluded = result.excludedUnknownHours
      ? `<p>${result.excludedUnknownHours} ${result.excludedUnknownHours === 1 ? "business is" : "businesses are"} left out because ${result.excludedUnknownHours === 1 ? "its" : "their"} opening hours are not known.</p>`
      : "";
    const place = found.city
      ? `${escapeHtml(found.city.region)}, ${escapeHtml(found.city.country)} · `
      : near
        ? `Within ${escapeHtml(search.radiusKm || "5")} km · `
        : "";
    const main = `<h1>${escapeHtml(heading)}</h1>
<p class="muted">${place}${result.totalMatches} ${result.totalMatches === 1 ? "business" : "businesses"}${openNow ? " open now" : ""}${result.businesses.length ? `, showing ${first}–${first + result.businesses.length - 1}` : ""}</p>
${excluded}<section aria-labelledby="ranking"><h2 id="ranking">How these are ordered</h2><p>${escapeHtml(result.rankingDisclosure)}</p></section>
<h2 id="results">Businesses</h2>
${items ? `<ol class="results" start="${first}">${items}</ol>` : `<p>No businesses are listed here yet.</p>${result.hint ? `<p class="hint">${escapeHtml(result.hint)}</p>` : ""}`}${attributionLines(result.attributions)}
${pager({ ...search, category: found.category?.slug ?? category, city: cityLabel || city }, page, pages, result.nextCursor)}
${searchForms({ ...formValues, category: found.category?.name ?? category, city: cityLabel || city })}`;
    // Later pages, open-now and near searches are the same listing narrowed: the plain first page is the one to index.
    const plain = !near && !openNow && !country && found.category && found.city;
    const canonical = plain ? `${baseUrl}${browseHref(found.category!.slug, cityLabel)}` : undefined;
    res.type("html").send(
      layout(
        {
          title: page > 1 ? `${heading}, page ${page}` : heading,
          description: `${what}${where}${found.city ? `, ${found.city.region}` : ""}: listings with sourced facts.`,
          canonical,
          noindex: page > 1 || !plain,
        },
        main,
      ),
    );
  } catch (error) {
    await sendErrorPage(res, extras, error, formValues);
  }
}
