import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { TAddBusinessOutput } from "@directory/api/schemas";

/*
 * Claiming a listing through the pages: a listing added as an operator adds one (with the website
 * and email a claim proves against), a real website on loopback for the token, the code in a mail.
 */

let listingCount = 0;

/** A new unclaimed listing, added through POST /api/v2/admin/businesses with the server's admin key. */
export async function addListing(
  server: { url: string; adminKey: string },
  params: { name: string; website?: string; email?: string },
): Promise<{ id: string; slug: string; name: string }> {
  listingCount += 1;
  const response = await fetch(`${server.url}/api/v2/admin/businesses`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name: params.name, category: "dentist", city: "mumbai-in", website: params.website, email: params.email }),
  });
  if (response.status !== 201) throw new Error(`adding listing ${listingCount} answered ${response.status}: ${await response.text()}`);
  const created = (await response.json()) as TAddBusinessOutput;
  return { id: created.id, slug: created.slug, name: params.name };
}

export interface LoopbackSite {
  /** http://127.0.0.1:port/, the website a listing gives. */
  home: string;
  /** What the home page's head holds from now on. */
  setHead(head: string): void;
  /** Paths requested, in order. */
  requested: string[];
  close(): Promise<void>;
}

/** A listing's website on loopback (test servers may fetch loopback sites): a home page, and 404 for anything else. */
export async function startLoopbackSite(): Promise<LoopbackSite> {
  let head = "";
  const requested: string[] = [];
  const server = http.createServer((request, response) => {
    requested.push(request.url ?? "/");
    if (request.url !== "/") return response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    response
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(`<!doctype html><html><head><title>Our practice</title>${head}</head><body><h1>Welcome</h1></body></html>`);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    home: `http://127.0.0.1:${port}/`,
    setHead: (next) => {
      head = next;
    },
    requested,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The 6-digit code of a claim mail. */
export function codeInMail(text: string): string {
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no code in: ${text}`);
  return code;
}

/** A code that is not `code`. */
export const wrongCode = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

/** The meta tag of a website token, as the page shows it (escaped) and as it goes on the site. */
export const metaTagFor = (token: string): string => `<meta name="business-directory-verification" content="${token}">`;

/** How many buttons a page has whose text is exactly `label`. */
export function buttonsNamed(html: string, label: string): number {
  return html.split(`>${label}</button>`).length - 1;
}
