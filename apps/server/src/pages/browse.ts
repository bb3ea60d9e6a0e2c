import type { Request, Response } from "express";
import { escapeHtml } from "../html";
import type { Caller } from "./errors";
import { sendErrorPage } from "./errors";
import { browseHref, layout, listingItem, searchForms } from "./layout";

export const BROWSE_PAGE_SIZE = 10;
/**
 * search.lookupBusinesses returns at most 50 businesses and has no cursor yet, so browse pages
 * through the first 50 by asking for page × size and showing the last slice. When the procedure
 * gains a cursor, pages can go deeper with it.
 */
export const BROWSE_MAX_RESULTS = 50;
export const BROWSE_MAX_PAGE = BROWSE_MAX_RESULTS / BROWSE_PAGE_SIZE;

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/** A positive page number, or null when the parameter is not one. */
function pageNumber(value: unknown): number | null {
  if (value === undefined || value === "") return 1;
  const raw = text(value);
  if (!/^\d{1,3}$/.test(raw)) return null;
  const page = Number(raw);
  return page >= 1 && page <= BROWSE_MAX_PAGE ? page : null;
}

function pager(category: string, city: string, page: number, hasNext: boolean): string {
  const lastPage = hasNext ? page + 1 : page;
  const items: string[] = [];
  if (page > 1) items.push(`<li><a rel="prev" href="${escapeHtml(browseHref(category, city, page - 1))}">Previous</a></li>`);
  for (let n = 1; n <= lastPage; n += 1) {
    items.push(n === page ? `<li><span aria-current="page">${n}</span></li>` : `<li><a href="${escapeHtml(browseHref(category, city, n))}">${n}</a></li>`);
  }
  if (hasNext) items.push(`<li><a rel="next" href="${escapeHtml(browseHref(category, city, page + 1))}">Next</a></li>`);
  return lastPage > 1 ? `<nav aria-label="Result pages"><ul class="pager">${items.join("")}</ul></nav>` : "";
}

export async function browsePage(req: Request, res: Response, caller: Caller, baseUrl: string): Promise<void> {
  const category = text(req.query.category);
  const city = text(req.query.city);
  const page = pageNumber(req.query.page);
  if (!category || !city || page === null) {
    const problem = !category || !city ? "Choose both a category and a city." : `Pages go from 1 to ${BROWSE_MAX_PAGE}.`;
    const main = `<h1>Browse the directory</h1><p>${escapeHtml(problem)}</p>${searchForms({ category, city })}`;
    res.status(400).type("html").send(layout({ title: "Browse the directory", noindex: true }, main));
    return;
  }
  try {
    const limit = Math.min(page * BROWSE_PAGE_SIZE + 1, BROWSE_MAX_RESULTS);
    const result = await caller.search.lookupBusinesses({ category, city, limit });
    const shown = result.businesses.slice((page - 1) * BROWSE_PAGE_SIZE, page * BROWSE_PAGE_SIZE);
    const hasNext = page < BROWSE_MAX_PAGE && result.businesses.length > page * BROWSE_PAGE_SIZE;
    if (page > 1 && shown.length === 0) {
      res.status(404).type("html").send(layout({ title: "No such page", noindex: true }, `<h1>No such page</h1><p>There are fewer results.</p><p><a href="${escapeHtml(browseHref(category, city))}">Back to the first page</a></p>`));
      return;
    }
    const cityLabel = `${result.city.name}, ${result.city.country}`;
    const heading = `${result.category.name} in ${result.city.name}`;
    const first = (page - 1) * BROWSE_PAGE_SIZE + 1;
    const items = shown.map(listingItem).join("");
    const main = `<h1>${escapeHtml(heading)}</h1>
<p class="muted">${escapeHtml(result.city.region)}, ${escapeHtml(result.city.country)}${shown.length ? ` · results ${first}–${first + shown.length - 1}` : ""}</p>
<section aria-labelledby="ranking"><h2 id="ranking">How these are ordered</h2><p>${escapeHtml(result.rankingDisclosure)}</p></section>
<h2 id="results">Businesses</h2>
${items ? `<ol class="results" start="${first}">${items}</ol>` : "<p>No businesses are listed here yet.</p>"}
${pager(result.category.slug, cityLabel, page, hasNext)}
${page === BROWSE_MAX_PAGE && result.businesses.length >= BROWSE_MAX_RESULTS ? `<p class="muted">Only the first ${BROWSE_MAX_RESULTS} are shown here; search by keywords to narrow down.</p>` : ""}
${searchForms({ category: result.category.name, city: cityLabel })}`;
    const canonical = `${baseUrl}${browseHref(result.category.slug, cityLabel, page)}`;
    res.type("html").send(layout({ title: page > 1 ? `${heading}, page ${page}` : heading, description: `${result.category.name} in ${result.city.name}, ${result.city.region}: listings with sourced facts.`, canonical }, main));
  } catch (error) {
    await sendErrorPage(res, caller, error, { category, city });
  }
}
