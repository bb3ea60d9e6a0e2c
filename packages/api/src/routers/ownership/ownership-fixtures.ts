import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { TRPCError } from "@trpc/server";
import { and, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { accounts, businesses, outboxEvents, rowsOf } from "@directory/db";
import { createContext } from "../../context";
import { createCaller } from "../../root";
import { createBusinesses } from "../../services/claims/business-creation";
import { ownerClaim } from "../../services/claims/claim-fixtures";
import { createMailer } from "../../services/mail/mailer";
import type { TestSmtpServer } from "../../services/mail/test-smtp-server";
import type { TestDatabase } from "../../testing";
import { accountCaller, newBrowser, PUBLIC_BASE_URL, signInTokenOf, type Browser } from "../account/account-fixtures";

/** Tests of ownership claims: a person's browser and caller, a listing to claim, and a real website on loopback. */

export interface Person {
  email: string;
  accountId: string;
  browser: Browser;
  csrfToken: string;
}

let nextAddress = 1;

/** Signs a person in through a real mail, each from an address of their own (the sign-in mail limit counts per client address). */
export async function signInPerson(database: TestDatabase, smtp: TestSmtpServer, email: string): Promise<Person> {
  const browser = newBrowser();
  const ip = `198.51.100.${nextAddress++}`;
  await accountCaller(database, smtp, browser, { ip }).account.signIn.request({ email });
  const mail = await smtp.nextMail(email);
  await accountCaller(database, smtp, browser, { origin: null, ip }).account.signIn.complete({ token: signInTokenOf(mail.text) });
  const csrfToken = (await accountCaller(database, smtp, browser, { ip }).account.me()).csrfToken;
  const [account] = await database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email));
  return { email, accountId: account!.id, browser, csrfToken };
}

/**
 * A caller as the person's browser on the service's pages: their session cookie, the service's
 * Origin and their CSRF token; the claimed sites may be on loopback unless `allowLoopback` is false.
 */
export function claimCaller(
  database: TestDatabase,
  smtp: TestSmtpServer,
  person: Person | null,
  options: { allowLoopback?: boolean; origin?: string; csrfToken?: string | null } = {},
) {
  const cookies = person ? [...person.browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ") : undefined;
  return createCaller(
    createContext({
      db: database.db,
      publicBaseUrl: PUBLIC_BASE_URL,
      cookieHeader: cookies || undefined,
      requestOrigin: options.origin ?? PUBLIC_BASE_URL,
      csrfToken: options.csrfToken === null ? undefined : (options.csrfToken ?? person?.csrfToken),
      clientIp: null,
      userAgent: "ownership-tests",
      mailer: createMailer({ smtpUrl: smtp.url, from: "Directory <no-reply@directory.test>", dataDir: "/nonexistent", log: () => {} }),
      siteOutbound: { allowLoopback: options.allowLoopback ?? true },
    }),
  );
}

/** A new unclaimed listing with a website and an email, made through the write path of new businesses. */
export async function createListing(database: TestDatabase, params: { name: string; website?: string; email?: string }): Promise<{ id: string; slug: string }> {
  const [city] = rowsOf<{ slug: string }>(await database.db.execute(sql`select slug from cities order by id limit 1`));
  const claims = [ownerClaim("name", params.name), ownerClaim("category", "cafe"), ownerClaim("city", city!.slug)];
  if (params.website) claims.push(ownerClaim("website", params.website));
  if (params.email) claims.push(ownerClaim("email", params.email));
  const [created] = await database.db.transaction((tx) => createBusinesses(tx, [{ label: params.name, claims }]));
  return created!;
}

/** The listing's ownership column, and its entity.updated events about ownership. */
export async function ownershipOf(database: TestDatabase, businessId: string): Promise<{ ownership: string; ownershipEvents: number }> {
  const [row] = await database.db.select({ ownership: businesses.ownership }).from(businesses).where(eq(businesses.id, businessId));
  const events = await database.db
    .select({ id: outboxEvents.id })
    .from(outboxEvents)
    .where(and(eq(outboxEvents.businessId, businessId), sql`${outboxEvents.payload} ->> 'change' = 'ownership'`));
  return { ownership: row!.ownership, ownershipEvents: events.length };
}

/** Awaits a call that must be refused; returns its tRPC code and message. */
export async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return { code: (error as TRPCError).code, message: (error as TRPCError).message };
}

export type SiteHandler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export interface TestSite {
  /** http://127.0.0.1:port */
  origin: string;
  /** The handler of each path; a path without one answers 404. */
  routes: Map<string, SiteHandler>;
  /** Paths requested, in order. */
  requested: string[];
  close(): Promise<void>;
}

/** A real website on loopback, its pages set per test. */
export async function startTestSite(): Promise<TestSite> {
  const routes = new Map<string, SiteHandler>();
  const requested: string[] = [];
  const server = http.createServer((request, response) => {
    const path = request.url ?? "/";
    requested.push(path);
    const handler = routes.get(path);
    if (handler) handler(request, response);
    else response.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    routes,
    requested,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A handler answering 200 with a body. */
export function page(body: string, contentType = "text/html; charset=utf-8"): SiteHandler {
  return (_request, response) => response.writeHead(200, { "content-type": contentType }).end(body);
}

/** A home page whose head holds these tags. */
export function homePage(head: string): SiteHandler {
  return page(`<!doctype html><html><head><title>Our shop</title>${head}</head><body><h1>Welcome</h1></body></html>`);
}
