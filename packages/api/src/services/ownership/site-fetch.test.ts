import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "../../errors";
import type { Resolver } from "../webhooks/outbound-address";
import { fetchSiteDocument, isSameSite } from "./site-fetch";
import { fileTokensIn, metaTokensIn } from "./website-token";

/** The website fetch under the outbound rules, with a fake DNS in front of a real server on loopback; and reading the token from what it fetched. */

let server: http.Server;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    hits.push(`${request.headers.host} ${request.url}`);
    if (request.url === "/hop") response.writeHead(302, { location: "/home" }).end();
    else if (request.url === "/loop") response.writeHead(302, { location: "/loop" }).end();
    else response.writeHead(200, { "content-type": "text/html" }).end("<html><head></head></html>");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A fake DNS whose answers for a name can change between lookups (DNS rebinding). */
function fakeDns(zone: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const answers = zone[hostname];
    const address = answers && answers.length > 1 ? answers.shift()! : answers?.[0];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return [{ address, family: 4 }];
  };
}

async function forbidden(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe("FORBIDDEN");
  return (error as DomainError).message;
}

describe("fetchSiteDocument", () => {
  it("connects to what the name resolves to, through the guarded lookup", async () => {
    const resolve = fakeDns({ "shop.test": ["127.0.0.1"] });
    const result = await fetchSiteDocument(new URL(`http://shop.test:${port}/`), { policy: { allowLoopback: true }, resolve });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(hits.at(-1)).toBe(`shop.test:${port} /`);
  });

  it("refuses a name resolving to a private or loopback address, without connecting", async () => {
    const before = hits.length;
    const resolve = fakeDns({ "private.test": ["10.0.0.5"], "shop.test": ["127.0.0.1"] });
    expect(await forbidden(fetchSiteDocument(new URL(`http://private.test:${port}/`), { policy: { allowLoopback: true }, resolve }))).toBe(
      `The listing's website (http://private.test:${port}) is not a public address: the service does not fetch it`,
    );
    await forbidden(fetchSiteDocument(new URL(`http://shop.test:${port}/`), { policy: { allowLoopback: false }, resolve }));
    expect(hits.length).toBe(before);
  });

  it("judges every hop again: a name that rebinds to a private address between redirects is refused", async () => {
    const resolve = fakeDns({ "shop.test": ["127.0.0.1", "10.0.0.5"] });
    const message = await forbidden(fetchSiteDocument(new URL(`http://shop.test:${port}/hop`), { policy: { allowLoopback: true }, resolve }));
    expect(message).toBe(`The listing's website redirected to http://shop.test:${port}, which is not a public address: the service does not fetch it`);
    expect(hits.at(-1)).toBe(`shop.test:${port} /hop`);
  });

  it("stops after 3 redirects", async () => {
    const before = hits.length;
    const result = await fetchSiteDocument(new URL(`http://127.0.0.1:${port}/loop`), { policy: { allowLoopback: true } });
    expect(result).toEqual({ ok: false, url: `http://127.0.0.1:${port}/loop`, problem: "redirected more than 3 times" });
    expect(hits.length - before).toBe(4);
  });

  it("refuses an IP literal outside public unicast without a lookup", async () => {
    const noDns: Resolver = () => Promise.reject(new Error("DNS must not be asked"));
    for (const url of ["http://10.1.2.3/", "http://169.254.169.254/latest", "http://[fd00::1]/", "http://localhost/"]) {
      await forbidden(fetchSiteDocument(new URL(url), { policy: { allowLoopback: false }, resolve: noDns }));
    }
  });
});

describe("isSameSite", () => {
  it.each([
    ["http://shop.test/", "http://shop.test/en", true],
    ["http://shop.test/", "https://shop.test/", true],
    ["http://shop.test/", "https://www.shop.test/", true],
    ["https://www.shop.test/", "https://shop.test/", true],
    ["https://shop.test/", "http://shop.test/", false],
    ["http://shop.test/", "http://other.test/", false],
    ["http://shop.test/", "http://evil.shop.test/", false],
    ["http://shop.test:8080/", "https://shop.test/", false],
    ["http://shop.test/", "http://shop.test:8080/", false],
  ])("%s -> %s: %s", (from, to, same) => {
    expect(isSameSite(new URL(from), new URL(to))).toBe(same);
  });
});

describe("reading the token", () => {
  it("finds the meta tag in the head whatever the attribute order, quotes and case", () => {
    const html = [
      "<html><head>",
      '<meta name="business-directory-verification" content="bdv_one">',
      "<meta content='bdv_two' name='Business-Directory-Verification'>",
      "<META NAME=business-directory-verification CONTENT=bdv_three />",
      '<meta\n  data-note="a > b"\n  name = "business-directory-verification"\n  content = " bdv_four ">',
      '<meta name="description" content="bdv_not_this">',
      '<!-- <meta name="business-directory-verification" content="bdv_commented"> -->',
      '<metadata name="business-directory-verification" content="bdv_not_meta">',
      "</head><body>",
      '<meta name="business-directory-verification" content="bdv_in_body">',
      "</body></html>",
    ].join("\n");
    expect(metaTokensIn(html)).toEqual(["bdv_one", "bdv_two", "bdv_three", "bdv_four"]);
  });

  it("reads a page with an unclosed quote and thousands of tags in bounded time", () => {
    const html = `<head>${'<meta name="x" content="y">'.repeat(5_000)}<meta content="${"z".repeat(200_000)}`;
    const started = performance.now();
    expect(metaTokensIn(html)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("reads the well-known file's trimmed text, or one token per line", () => {
    expect(fileTokensIn("\uFEFF  bdv_one \r\n")).toEqual(["bdv_one"]);
    expect(fileTokensIn("bdv_one\nbdv_two\n\n")).toEqual(["bdv_one", "bdv_two"]);
    expect(fileTokensIn("")).toEqual([]);
  });
});
