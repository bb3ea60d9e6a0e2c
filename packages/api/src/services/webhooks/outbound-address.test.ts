import { once } from "node:events";
import http from "node:http";
import { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "../../errors";
import {
  assertPublicDestination,
  checkWebhookUrl,
  guardedLookup,
  isAllowedAddress,
  outboundPolicyFromEnv,
  type OutboundPolicy,
  type Resolver,
} from "./outbound-address";

const strict: OutboundPolicy = { allowLoopback: false };
const dev: OutboundPolicy = { allowLoopback: true };

/** A fake DNS: no real resolution ever happens in these tests. */
const ZONE: Record<string, { address: string; family: number }[]> = {
  "public.test": [{ address: "93.184.216.34", family: 4 }],
  "public6.test": [{ address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 }],
  "dual.test": [
    { address: "93.184.216.34", family: 4 },
    { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
  ],
  "rebind.test": [{ address: "127.0.0.1", family: 4 }],
  "private.test": [{ address: "10.0.0.5", family: 4 }],
  "mixed.test": [
    { address: "93.184.216.34", family: 4 },
    { address: "10.0.0.5", family: 4 },
  ],
  "metadata.test": [{ address: "169.254.169.254", family: 4 }],
  "ula.test": [{ address: "fd12:3456:789a::1", family: 6 }],
  "mapped.test": [{ address: "::ffff:127.0.0.1", family: 6 }],
  "loop6.test": [{ address: "::1", family: 6 }],
  "empty.test": [],
};
const fakeDns: Resolver = async (hostname) => {
  const entry = ZONE[hostname];
  if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return entry;
};

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("INVALID_INPUT");
    return (error as DomainError).message;
  }
  throw new Error("expected a refusal");
}

async function asyncRefusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe("INVALID_INPUT");
  return (error as DomainError).message;
}

/** Every address that must never be reached under the strict policy, by category. */
const REFUSED_ADDRESSES: [string, string][] = [
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["::1", "loopback"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["::", "unspecified"],
  ["10.0.0.5", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["169.254.169.254", "link-local"],
  ["169.254.0.1", "link-local"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["100.64.0.1", "carrier-grade NAT"],
  ["100.127.255.254", "carrier-grade NAT"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["ff02::1", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["240.0.0.1", "reserved"],
  ["192.0.0.8", "reserved"],
  ["192.0.2.1", "reserved"],
  ["198.51.100.7", "reserved"],
  ["203.0.113.9", "reserved"],
  ["198.18.0.1", "reserved"],
  ["198.19.255.254", "reserved"],
  ["2001:db8::1", "reserved"],
  ["fc00::1", "unique local"],
  ["fd12:3456:789a::1", "unique local"],
  ["fec0::1", "site-local"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:10.0.0.5", "private"],
  ["::ffff:169.254.169.254", "link-local"],
  ["::127.0.0.1", "reserved"],
  ["::93.184.216.34", "reserved"],
  ["::ffff:0:127.0.0.1", "IPv4-translated"],
  ["64:ff9b::127.0.0.1", "embedding a loopback IPv4"],
  ["64:ff9b::10.0.0.5", "embedding a private IPv4"],
  ["64:ff9b:1::a00:5", "NAT64 local-use"],
  ["2002:7f00:1::1", "embedding a loopback IPv4"],
  ["2002:a00:5::1", "embedding a private IPv4"],
  ["2002:a9fe:a9fe::1", "embedding a link-local IPv4"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
  ["2001:2::1", "benchmarking"],
  ["100::1", "discard-only"],
  ["5f00::1", "reserved"],
];

const PUBLIC_ADDRESSES = [
  "93.184.216.34",
  "8.8.8.8",
  "1.1.1.1",
  "172.32.0.1",
  "100.128.0.1",
  "2606:2800:220:1:248:1893:25c8:1946",
  "2a00:1450:4001:82a::200e",
  "::ffff:93.184.216.34",
  "64:ff9b::93.184.216.34",
  "2002:5db8:d822::1",
];

describe("isAllowedAddress", () => {
  it.each(REFUSED_ADDRESSES)("refuses %s (%s)", (ip) => {
    expect(isAllowedAddress(ip, strict)).toBe(false);
  });

  it.each(PUBLIC_ADDRESSES)("allows public %s", (ip) => {
    expect(isAllowedAddress(ip, strict)).toBe(true);
    expect(isAllowedAddress(ip, dev)).toBe(true);
  });

  it("refuses text that is not a canonical address (numeric tricks are never judged loosely)", () => {
    for (const text of ["", "localhost", "2130706433", "0177.0.0.1", "0x7f.1", "127.1", "1.2.3.4.5", "example.com", "::ffff:999.0.0.1"]) {
      expect(isAllowedAddress(text, strict)).toBe(false);
      expect(isAllowedAddress(text, dev)).toBe(false);
    }
  });

  it("allowLoopback admits loopback and nothing else new", () => {
    for (const ip of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) expect(isAllowedAddress(ip, dev)).toBe(true);
    const stillRefused = REFUSED_ADDRESSES.filter(([, kind]) => kind !== "loopback").map(([ip]) => ip);
    for (const ip of [...stillRefused, "64:ff9b::127.0.0.1", "2002:7f00:1::1"]) expect(isAllowedAddress(ip, dev), ip).toBe(false);
  });
});

describe("checkWebhookUrl (registration, sync)", () => {
  it("returns the parsed URL for public http(s) destinations", () => {
    for (const raw of [
      "https://hooks.example.com/directory",
      "http://93.184.216.34:8080/hook?x=1",
      "https://[2606:2800:220:1:248:1893:25c8:1946]/hook",
      "HTTPS://Hooks.Example.COM/Path",
    ]) {
      const url = checkWebhookUrl(raw, strict);
      expect(url).toBeInstanceOf(URL);
      expect(url.href).toBe(new URL(raw).href);
    }
  });

  it.each([
    ["ftp://example.com/file", "only http and https URLs are accepted"],
    ["javascript:alert(1)", "only http and https URLs are accepted"],
    ["file:///etc/passwd", "only http and https URLs are accepted"],
    ["data:text/plain,hi", "only http and https URLs are accepted"],
    ["ws://example.com/", "only http and https URLs are accepted"],
    ["gopher://127.0.0.1:6379/_FLUSHALL", "only http and https URLs are accepted"],
    ["http://user:pass@example.com/", "credentials"],
    ["https://user@example.com/", "credentials"],
    ["https://:secret@example.com/", "credentials"],
    ["http://", "not a valid absolute URL"],
    ["https:///", "not a valid absolute URL"],
    ["http://./", "a host is required"],
    ["/relative/path", "not a valid absolute URL"],
    ["example.com/hook", "not a valid absolute URL"],
    ["", "not a valid absolute URL"],
  ])("refuses %s", (raw, reason) => {
    const message = refusal(() => checkWebhookUrl(raw, strict));
    expect(message).toMatch(/^Invalid parameter url: /);
    expect(message).toContain(reason);
  });

  it.each([
    ["http://127.0.0.1/", "loopback address (127.0.0.1)"],
    ["http://127.0.0.1:3000/hook", "loopback address (127.0.0.1)"],
    ["http://[::1]/", "loopback address (::1)"],
    ["http://localhost/", "loopback name (localhost)"],
    ["http://LOCALHOST:8080/", "loopback name (localhost)"],
    ["http://localhost./", "loopback name (localhost)"],
    ["http://app.localhost/", "loopback name (app.localhost)"],
    ["http://0.0.0.0/", "unspecified address (0.0.0.0)"],
    ["http://[::]/", "unspecified address (::)"],
    ["http://10.0.0.5/", "private address (10.0.0.5)"],
    ["http://172.16.3.4/", "private address (172.16.3.4)"],
    ["http://192.168.0.1/", "private address (192.168.0.1)"],
    ["http://169.254.169.254/latest/meta-data/", "link-local address (169.254.169.254)"],
    ["http://[fe80::1]/", "link-local address (fe80::1)"],
    ["http://100.64.1.2/", "carrier-grade NAT address (100.64.1.2)"],
    ["http://224.0.0.251/", "multicast address (224.0.0.251)"],
    ["http://[ff02::1]/", "multicast address (ff02::1)"],
    ["http://255.255.255.255/", "broadcast address (255.255.255.255)"],
    ["http://198.18.0.1/", "reserved address (198.18.0.1)"],
    ["http://192.0.2.10/", "reserved address (192.0.2.10)"],
    ["http://240.1.2.3/", "reserved address (240.1.2.3)"],
    ["http://[fd00::1]/", "unique local (private) address (fd00::1)"],
    ["http://[::ffff:127.0.0.1]/", "loopback address (::ffff:7f00:1)"],
    ["http://[::ffff:10.0.0.5]/", "private address (::ffff:a00:5)"],
    ["http://[::ffff:169.254.169.254]/", "link-local address (::ffff:a9fe:a9fe)"],
    ["http://[64:ff9b::10.0.0.5]/", "embedding a private IPv4 address"],
    ["http://[2002:a9fe:a9fe::1]/", "embedding a link-local IPv4 address"],
    ["http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "Teredo address"],
    // Numeric tricks: WHATWG URL parsing normalises each to 127.0.0.1 before the check.
    ["http://2130706433/", "loopback address (127.0.0.1)"],
    ["http://0177.0.0.1/", "loopback address (127.0.0.1)"],
    ["http://0x7f.1/", "loopback address (127.0.0.1)"],
    ["http://0x7f000001/", "loopback address (127.0.0.1)"],
    ["http://127.1/", "loopback address (127.0.0.1)"],
    ["http://017700000001/", "loopback address (127.0.0.1)"],
    ["http://0/", "unspecified address (0.0.0.0)"],
    ["http://167772165/", "private address (10.0.0.5)"],
    ["http://0xa9.0xfe.0xa9.0xfe/", "link-local address (169.254.169.254)"],
    ["http://%31%32%37.0.0.1/", "loopback address (127.0.0.1)"],
    ["http://１２７.０.０.１/", "loopback address (127.0.0.1)"],
  ])("refuses %s", (raw, reason) => {
    const message = refusal(() => checkWebhookUrl(raw, strict));
    expect(message).toMatch(/^Invalid parameter url: /);
    expect(message).toContain(reason);
  });

  it("allowLoopback admits 127.0.0.1, localhost and [::1] but still refuses private and metadata addresses", () => {
    for (const raw of ["http://127.0.0.1:4000/hook", "http://localhost:4000/", "http://[::1]:4000/", "http://2130706433/", "http://app.localhost/"]) {
      expect(checkWebhookUrl(raw, dev).href).toBe(new URL(raw).href);
    }
    expect(refusal(() => checkWebhookUrl("http://10.0.0.5/", dev))).toContain("private address (10.0.0.5)");
    expect(refusal(() => checkWebhookUrl("http://169.254.169.254/", dev))).toContain("link-local address (169.254.169.254)");
    expect(refusal(() => checkWebhookUrl("http://0.0.0.0/", dev))).toContain("unspecified");
    expect(refusal(() => checkWebhookUrl("http://[fd00::1]/", dev))).toContain("unique local");
    expect(refusal(() => checkWebhookUrl("ftp://127.0.0.1/", dev))).toContain("only http and https");
    expect(refusal(() => checkWebhookUrl("http://u:p@localhost/", dev))).toContain("credentials");
  });
});

describe("assertPublicDestination (registration, DNS)", () => {
  it.each(["public.test", "public6.test", "dual.test"])("passes %s, which resolves only to public addresses", async (host) => {
    await expect(assertPublicDestination(new URL(`https://${host}/hook`), strict, fakeDns)).resolves.toBeUndefined();
  });

  it("passes public IP literals without asking DNS", async () => {
    const noDns: Resolver = () => Promise.reject(new Error("DNS must not be asked"));
    await expect(assertPublicDestination(new URL("http://93.184.216.34/"), strict, noDns)).resolves.toBeUndefined();
    await expect(assertPublicDestination(new URL("http://[2606:2800:220:1:248:1893:25c8:1946]/"), strict, noDns)).resolves.toBeUndefined();
  });

  it.each([
    ["rebind.test", "rebind.test resolves to a loopback address (127.0.0.1)"],
    ["private.test", "private.test resolves to a private address (10.0.0.5)"],
    ["mixed.test", "mixed.test resolves to a private address (10.0.0.5)"],
    ["metadata.test", "metadata.test resolves to a link-local address (169.254.169.254)"],
    ["ula.test", "ula.test resolves to a unique local (private) address (fd12:3456:789a::1)"],
    ["mapped.test", "mapped.test resolves to a loopback address (::ffff:127.0.0.1)"],
    ["loop6.test", "loop6.test resolves to a loopback address (::1)"],
    ["nowhere.test", "the host does not resolve (nowhere.test)"],
    ["empty.test", "the host does not resolve (empty.test)"],
  ])("refuses %s", async (host, reason) => {
    const message = await asyncRefusal(assertPublicDestination(new URL(`https://${host}/hook`), strict, fakeDns));
    expect(message).toBe(`Invalid parameter url: ${reason}${reason.includes("resolves") ? "; only public addresses are accepted" : ""}`);
  });

  it("repeats the sync checks on the URL it is given", async () => {
    expect(await asyncRefusal(assertPublicDestination(new URL("http://10.0.0.5/"), strict, fakeDns))).toContain("private address (10.0.0.5)");
    expect(await asyncRefusal(assertPublicDestination(new URL("http://localhost/"), strict, fakeDns))).toContain("loopback name");
    expect(await asyncRefusal(assertPublicDestination(new URL("ftp://public.test/"), strict, fakeDns))).toContain("only http and https");
  });

  it("allowLoopback admits names resolving to loopback but still refuses private and link-local ones", async () => {
    await expect(assertPublicDestination(new URL("http://rebind.test/"), dev, fakeDns)).resolves.toBeUndefined();
    await expect(assertPublicDestination(new URL("http://loop6.test/"), dev, fakeDns)).resolves.toBeUndefined();
    await expect(assertPublicDestination(new URL("http://localhost:3000/"), dev, fakeDns)).resolves.toBeUndefined();
    await expect(assertPublicDestination(new URL("http://[::1]:3000/"), dev, fakeDns)).resolves.toBeUndefined();
    expect(await asyncRefusal(assertPublicDestination(new URL("http://private.test/"), dev, fakeDns))).toContain("private address (10.0.0.5)");
    expect(await asyncRefusal(assertPublicDestination(new URL("http://mixed.test/"), dev, fakeDns))).toContain("private address (10.0.0.5)");
    expect(await asyncRefusal(assertPublicDestination(new URL("http://metadata.test/"), dev, fakeDns))).toContain("169.254.169.254");
  });

  it("uses real dns.lookup by default (localhost only, judged without DNS; loopback literal refused)", async () => {
    await expect(assertPublicDestination(new URL("http://localhost/"), dev)).resolves.toBeUndefined();
    expect(await asyncRefusal(assertPublicDestination(new URL("http://127.0.0.1/"), strict))).toContain("loopback address");
  });
});

describe("guardedLookup (connect time)", () => {
  let server: http.Server;
  let port: number;
  let requestsSeen = 0;
  /** The rebinding attacker's DNS: rebind.test now points at our loopback. */
  const resolverToLoopback: Resolver = async (hostname) => {
    if (hostname === "rebind.test") return [{ address: "127.0.0.1", family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  };

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      requestsSeen += 1;
      res.end("secret internal data");
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.close();
    await once(server, "close");
  });

  function get(url: string, options: http.RequestOptions): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(url, { ...options, agent: false, timeout: 5000 }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", reject);
      });
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", reject);
      req.end();
    });
  }

  it("refuses a name that now resolves to loopback: EADDRBLOCKED, and the server never sees a request", async () => {
    const before = requestsSeen;
    const error = await get(`http://rebind.test:${port}/`, { lookup: guardedLookup(strict, resolverToLoopback) }).then(
      () => null,
      (e: unknown) => e as NodeJS.ErrnoException,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error?.code).toBe("EADDRBLOCKED");
    expect(error?.message).toContain("rebind.test resolves to a loopback address (127.0.0.1)");
    expect(requestsSeen).toBe(before);
  });

  it("connects when allowLoopback is set (the same request succeeds)", async () => {
    const before = requestsSeen;
    const response = await get(`http://rebind.test:${port}/`, { lookup: guardedLookup(dev, resolverToLoopback) });
    expect(response).toEqual({ status: 200, body: "secret internal data" });
    expect(requestsSeen).toBe(before + 1);
  });

  it("checks every attempt: a name that was public and then rebinds to loopback is refused on the second request", async () => {
    let calls = 0;
    const rebinding: Resolver = async () => (calls++ === 0 ? [{ address: "93.184.216.34", family: 4 }] : [{ address: "127.0.0.1", family: 4 }]);
    const lookup = guardedLookup(strict, rebinding);
    const first = await lookupOnce(lookup, "rebind.test", { all: true });
    expect(first).toEqual({ address: [{ address: "93.184.216.34", family: 4 }] });
    const before = requestsSeen;
    const error = await get(`http://rebind.test:${port}/`, { lookup }).then(
      () => null,
      (e: unknown) => e as NodeJS.ErrnoException,
    );
    expect(error?.code).toBe("EADDRBLOCKED");
    expect(requestsSeen).toBe(before);
  });

  it("uses real dns.lookup by default: localhost is refused under the strict policy and reached when allowed", async () => {
    const before = requestsSeen;
    const error = await get(`http://localhost:${port}/`, { lookup: guardedLookup(strict), family: 4 }).then(
      () => null,
      (e: unknown) => e as NodeJS.ErrnoException,
    );
    expect(error?.code).toBe("EADDRBLOCKED");
    expect(requestsSeen).toBe(before);
    const response = await get(`http://localhost:${port}/`, { lookup: guardedLookup(dev), family: 4 });
    expect(response.status).toBe(200);
  });

  function lookupOnce(
    lookup: ReturnType<typeof guardedLookup>,
    hostname: string,
    options: Parameters<ReturnType<typeof guardedLookup>>[1],
  ): Promise<{ address: unknown; family?: number }> {
    return new Promise((resolve, reject) => {
      lookup(hostname, options, (err, address, family) => (err ? reject(err) : resolve(family === undefined ? { address } : { address, family })));
    });
  }

  it("honours options.all and options.family", async () => {
    const lookup = guardedLookup(strict, fakeDns);
    expect(await lookupOnce(lookup, "dual.test", { all: true })).toEqual({
      address: [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
      ],
    });
    expect(await lookupOnce(lookup, "dual.test", {})).toEqual({ address: "93.184.216.34", family: 4 });
    expect(await lookupOnce(lookup, "dual.test", { family: 6 })).toEqual({ address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 });
    expect(await lookupOnce(lookup, "dual.test", { family: 4, all: true })).toEqual({ address: [{ address: "93.184.216.34", family: 4 }] });
    await expect(lookupOnce(lookup, "public.test", { family: 6 })).rejects.toMatchObject({ code: "ENOTFOUND" });
    await expect(lookupOnce(lookup, "nowhere.test", {})).rejects.toMatchObject({ code: "ENOTFOUND" });
  });

  it("refuses the whole answer when any address is refused, whatever the family asked for", async () => {
    const lookup = guardedLookup(strict, fakeDns);
    for (const host of ["mixed.test", "private.test", "metadata.test", "ula.test", "mapped.test", "loop6.test"]) {
      await expect(lookupOnce(lookup, host, { all: true }), host).rejects.toMatchObject({ code: "EADDRBLOCKED" });
      await expect(lookupOnce(lookup, host, {}), host).rejects.toMatchObject({ code: "EADDRBLOCKED" });
    }
    const dual = guardedLookup(dev, fakeDns);
    await expect(lookupOnce(dual, "private.test", {})).rejects.toMatchObject({ code: "EADDRBLOCKED", address: "10.0.0.5" });
    await expect(lookupOnce(dual, "mapped.test", {})).resolves.toEqual({ address: "::ffff:127.0.0.1", family: 6 });
  });
});

describe("outboundPolicyFromEnv", () => {
  it("allows loopback only when WEBHOOK_ALLOW_LOOPBACK is true or 1", () => {
    expect(outboundPolicyFromEnv({})).toEqual({ allowLoopback: false });
    expect(outboundPolicyFromEnv({ WEBHOOK_ALLOW_LOOPBACK: "true" })).toEqual({ allowLoopback: true });
    expect(outboundPolicyFromEnv({ WEBHOOK_ALLOW_LOOPBACK: "1", NODE_ENV: "development" })).toEqual({ allowLoopback: true });
    expect(outboundPolicyFromEnv({ WEBHOOK_ALLOW_LOOPBACK: "TRUE", NODE_ENV: "test" })).toEqual({ allowLoopback: true });
    for (const value of ["", "0", "false", "yes", "on", "2"]) {
      expect(outboundPolicyFromEnv({ WEBHOOK_ALLOW_LOOPBACK: value })).toEqual({ allowLoopback: false });
    }
  });

  it("refuses allowLoopback under NODE_ENV=production with a clear message", () => {
    expect(() => outboundPolicyFromEnv({ WEBHOOK_ALLOW_LOOPBACK: "true", NODE_ENV: "production" })).toThrow(/WEBHOOK_ALLOW_LOOPBACK.*NODE_ENV=production/);
    expect(() => outboundPolicyFromEnv({ WEBHOOK_ALLOW_LOOPBACK: "1", NODE_ENV: "production" })).toThrow(Error);
    expect(outboundPolicyFromEnv({ WEBHOOK_ALLOW_LOOPBACK: "false", NODE_ENV: "production" })).toEqual({ allowLoopback: false });
    expect(outboundPolicyFromEnv({ NODE_ENV: "production" })).toEqual({ allowLoopback: false });
  });
});
