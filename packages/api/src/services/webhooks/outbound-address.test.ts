import { describe, expect, it } from "vitest";
import { checkWebhookUrl, isAllowedAddress, outboundPolicyFromEnv } from "./outbound-address";
import { dev, refusal, strict } from "./outbound-address-fixtures";

/** Judging a destination without DNS: addresses, URLs at registration, and the policy read from the environment. */

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
