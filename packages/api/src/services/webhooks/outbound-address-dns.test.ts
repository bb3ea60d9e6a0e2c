import { once } from "node:events";
import http from "node:http";
import { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertPublicDestination, guardedLookup, type Resolver } from "./outbound-address";
import { asyncRefusal, dev, strict } from "./outbound-address-fixtures";

/** Judging a destination by what its name resolves to: at registration, and again at every connection (DNS rebinding). */

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

describe("assertPublicDestination (registration, DNS)", () => {
  it.each(["public.test", "public6.test", "dual.test"])("passes %s, which resolves only to public addresses", async (host) => {
    await expect(assertPublicDestination(new URL(`https://${host}/hook`), strict, fakeDns)).resolves.toBeUndefined();
  });

  it("passes public IP literals without asking DNS", async () => {
    const noDns: Resolver = () => Promise.reject(new Error("DNS must not be asked"));
    await expect(assertPublicDestination(new URL("http://93.184.216.34/"), strict, noDns)).resolves.toBeUndefined();
    await expect(assertPublicDestination(new URL("http://[2606:2800:220:1:248:1893:25c8:1946]/"), strict, noDns)).resolves.toBeUndefined();
  });

  it.each(["rebind.test", "private.test", "mixed.test", "metadata.test", "ula.test", "mapped.test", "loop6.test", "nowhere.test", "empty.test"])(
    "refuses %s with one answer that names neither the address nor whether the name exists (no internal-DNS oracle)",
    async (host) => {
      const message = await asyncRefusal(assertPublicDestination(new URL(`https://${host}/hook`), strict, fakeDns));
      expect(message).toBe(`Invalid parameter url: ${host} does not resolve to a public address; only public addresses are accepted`);
    },
  );

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
    for (const host of ["private.test", "mixed.test", "metadata.test"]) {
      expect(await asyncRefusal(assertPublicDestination(new URL(`http://${host}/`), dev, fakeDns))).toContain("does not resolve to a public address");
    }
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
    // What a delivery log shows: the refusal, not the internal address the name resolved to.
    expect(error?.message).toContain("rebind.test does not resolve to a public address");
    expect(error?.message).not.toContain("127.0.0.1");
    expect((error as { address?: string } | null)?.address).toBe("127.0.0.1");
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
