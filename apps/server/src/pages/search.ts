import type { Request, Response } from "express";
import { KEYWORD_QUERY_LENGTH } from "@directory/api/schemas";
import { escapeHtml } from "../html";
import { sendErrorPage, type PageCallers } from "./errors";
import { attributionLines, layout, listingItem, searchForms } from "./layout";

/** The shortest query the keyword search takes, as a person reads it ("two"). */
const SHORTEST_QUERY = ["no", "one", "two", "three", "four", "five"][KEYWORD_QUERY_LENGTH.min] ?? String(KEYWORD_QUERY_LENGTH.min);

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/** Keyword results (search.searchKeyword); not indexed: the query space is endless. */
export async function searchPage(req: Request, res: Response, { caller, extras }: PageCallers): Promise<void> {
  const q = text(req.query.q);
  const city = text(req.query.city);
  // Not in the keyword form, but taken from a link as every search door takes it (a 400 naming a bad code).
  const country = text(req.query.country);
  if (q.length < KEYWORD_QUERY_LENGTH.min) {
    const main = `<h1>Search by keywords</h1>${req.query.q === undefined ? "" : `<p>Type at least ${SHORTEST_QUERY} characters.</p>`}${searchForms({ q, city }, 2)}`;
    res
      .status(req.query.q === undefined ? 200 : 400)
      .type("html")
      .send(layout({ title: "Search by keywords", noindex: true }, main));
    return;
  }
  try {
    const result = await caller.search.searchKeyword({ query: q, city: city || undefined, country: country || undefined, limit: 10 });
    const where = result.city ? ` in ${result.city.name}` : result.country ? ` in ${result.country}` : "";
    const items = result.businesses.map((listing) => listingItem(listing)).join("");
    const main = `<h1>Results for “${escapeHtml(q)}”${escapeHtml(where)}</h1>
<section aria-labelledby="ranking"><h2 id="ranking">How these are ordered</h2><p>${escapeHtml(result.rankingModel)}</p></section>
<h2 id="results">Businesses</h2>${result.hint ? `\n<p class="hint">${escapeHtml(result.hint)}</p>` : ""}
${items ? `<ol class="results">${items}</ol>` : "<p>Nothing matched. Try fewer or other words, or browse by category and city.</p>"}${attributionLines(result.attributions)}
${searchForms({ q, city })}`;
    res.type("html").send(layout({ title: `Results for ${q}${where}`, noindex: true }, main));
  } catch (error) {
    await sendErrorPage(res, extras, error, { q, city });
  }
}
