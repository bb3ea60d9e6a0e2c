import type { Request, Response } from "express";
import { escapeHtml, queryString } from "../html";
import type { Caller } from "./errors";
import { sendErrorPage } from "./errors";
import { browseHref, layout, listingItem, searchForms } from "./layout";

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

function nextHref(category: string, city: string, cursor: string, page: number): string {
  return `/browse${queryString({ category, city, cursor, page })}`;
}

/**
 * Keyset paging (search.lookupBusinesses' nextCursor): forward by cursor, back to the first page,
 * and one step back from page 2; the browser's back button covers the rest.
 */
function pager(category: string, city: string, page: number, pages: number, nextCursor: string | null): string {
  const items: string[] = [];
  if (page === 2) items.push(`<li><a rel="prev" href="${escapeHtml(browseHref(category, city))}">Previous</a></li>`);
  else if (page > 2) items.push(`<li><a rel="first" href="${escapeHtml(browseHref(category, city))}">First page</a></li>`);
  items.push(`<li><span aria-current="page">Page ${page} of ${Math.max(pages, page)}</span></li>`);
  if (nextCursor) items.push(`<li><a rel="next" href="${escapeHtml(nextHref(category, city, nextCursor, page + 1))}">Next</a></li>`);
  return pages > 1 || page > 1 ? `<nav aria-label="Result pages"><ul class="pager">${items.join("")}</ul></nav>` : "";
}

export async function browsePage(req: Request, res: Response, caller: Caller, baseUrl: string): Promise<void> {
  const category = text(req.query.category);
  const city = text(req.query.city);
  const cursor = text(req.query.cursor) || undefined;
  const page = pageNumber(req.query.page);
  if (!category || !city || page === null || (page > 1 && !cursor)) {
    const problem = !category || !city ? "Choose both a category and a city." : "That page link is not valid; start from the first page.";
    const main = `<h1>Browse the directory</h1><p>${escapeHtml(problem)}</p>${searchForms({ category, city })}`;
    res
      .status(400)
      .type("html")
      .send(layout({ title: "Browse the directory", noindex: true }, main));
    return;
  }
  try {
    const result = await caller.search.lookupBusinesses({ category, city, limit: BROWSE_PAGE_SIZE, cursor });
    // Both were named, so both resolved (an unknown one is a 404 the catch renders).
    const found = { category: result.category!, city: result.city! };
    const cityLabel = `${found.city.name}, ${found.city.country}`;
    const heading = `${found.category.name} in ${found.city.name}`;
    const first = (page - 1) * BROWSE_PAGE_SIZE + 1;
    const pages = Math.ceil(result.totalMatches / BROWSE_PAGE_SIZE);
    const items = result.businesses.map(listingItem).join("");
    const main = `<h1>${escapeHtml(heading)}</h1>
<p class="muted">${escapeHtml(found.city.region)}, ${escapeHtml(found.city.country)} · ${result.totalMatches} ${result.totalMatches === 1 ? "business" : "businesses"}${result.businesses.length ? `, showing ${first}–${first + result.businesses.length - 1}` : ""}</p>
<section aria-labelledby="ranking"><h2 id="ranking">How these are ordered</h2><p>${escapeHtml(result.rankingDisclosure)}</p></section>
<h2 id="results">Businesses</h2>
${items ? `<ol class="results" start="${first}">${items}</ol>` : "<p>No businesses are listed here yet.</p>"}
${pager(found.category.slug, cityLabel, page, pages, result.nextCursor)}
${searchForms({ category: found.category.name, city: cityLabel })}`;
    // Later pages are the same listing continued: the first page is the one to index.
    const canonical = `${baseUrl}${browseHref(found.category.slug, cityLabel)}`;
    res.type("html").send(
      layout(
        {
          title: page > 1 ? `${heading}, page ${page}` : heading,
          description: `${found.category.name} in ${found.city.name}, ${found.city.region}: listings with sourced facts.`,
          canonical,
          noindex: page > 1,
        },
        main,
      ),
    );
  } catch (error) {
    await sendErrorPage(res, caller, error, { category, city });
  }
}
