import type { TestSmtpServer } from "@directory/api/testing";

/*
 * The account pages over plain HTTP, as a browser without JavaScript uses them: urlencoded forms,
 * the cookie the server set, the csrfToken field the pages carry, and the browser's Origin.
 */

/** The Origin a browser on the service's own pages sends (the test server's PUBLIC_BASE_URL). */
export const OWN_ORIGIN = "http://directory.test";

export interface PageSession {
  cookie: string;
  csrfToken: string;
}

export interface PageAnswer {
  status: number;
  headers: Headers;
  body: string;
}

async function answer(response: Response): Promise<PageAnswer> {
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** A page GET, redirects not followed. */
export async function getPage(baseUrl: string, path: string, cookie?: string): Promise<PageAnswer> {
  return answer(await fetch(`${baseUrl}${path}`, { redirect: "manual", headers: { accept: "text/html", ...(cookie ? { cookie } : {}) } }));
}

/** A form POST (application/x-www-form-urlencoded); origin null sends none, as a program would. */
export async function postForm(
  baseUrl: string,
  path: string,
  fields: Record<string, string>,
  options: { cookie?: string; origin?: string | null } = {},
): Promise<PageAnswer> {
  const headers: Record<string, string> = { accept: "text/html", "content-type": "application/x-www-form-urlencoded" };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.origin !== null) headers.origin = options.origin ?? OWN_ORIGIN;
  return answer(await fetch(`${baseUrl}${path}`, { method: "POST", redirect: "manual", headers, body: new URLSearchParams(fields).toString() }));
}

/** The cookies a response set, as a Cookie header would send them back. */
export function cookieOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/** The sign-in link of a mail. */
export function signInLinkOf(text: string): URL {
  const link = /https?:\/\/\S+\/sign-in\/magic-link\/verify\?\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no sign-in link in: ${text}`);
  return new URL(link);
}

/** The csrfToken field of a signed-in page's forms. */
export function csrfTokenOn(html: string): string {
  const token = /name="csrfToken" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error("no csrfToken field on the page");
  return token;
}

/** Opens a mail's sign-in link as a person does: its page (GET, which spends nothing), then its Sign in button (POST). */
export async function openSignInLink(baseUrl: string, link: URL): Promise<PageAnswer> {
  const page = await getPage(baseUrl, `${link.pathname}${link.search}`);
  if (page.status !== 200 || !page.body.includes(">Sign in</button>")) throw new Error(`the link's page answered ${page.status}`);
  return postForm(baseUrl, link.pathname, { token: link.searchParams.get("token") ?? "" });
}

/** Asks for a link on /sign-in, opens the mail's link, and reads the CSRF token off /developers. */
export async function signInThroughPages(baseUrl: string, smtp: TestSmtpServer, email: string): Promise<PageSession & { verify: PageAnswer }> {
  const asked = await postForm(baseUrl, "/sign-in", { email });
  if (asked.status !== 200) throw new Error(`POST /sign-in answered ${asked.status}`);
  const verify = await openSignInLink(baseUrl, signInLinkOf((await smtp.nextMail(email)).text));
  const cookie = cookieOf(verify.headers);
  const developers = await getPage(baseUrl, "/developers", cookie);
  return { cookie, csrfToken: csrfTokenOn(developers.body), verify };
}

/** Creates a key with the developer page's form; returns the key shown once, and the page. */
export async function createKeyThroughPage(baseUrl: string, session: PageSession, label: string): Promise<{ key: string; page: PageAnswer }> {
  const page = await postForm(baseUrl, "/developers/keys", { label, csrfToken: session.csrfToken }, { cookie: session.cookie });
  const key = /id="new-key-value">([^<]+)</.exec(page.body)?.[1];
  if (page.status !== 200 || !key) throw new Error(`creating a key answered ${page.status}`);
  return { key, page };
}

/** The ids in the Revoke forms of a developer page. */
export function keyIdsOn(html: string): string[] {
  return [...html.matchAll(/action="\/developers\/keys\/revoke">.*?name="id" value="([^"]+)"/g)].map((match) => match[1]!);
}
