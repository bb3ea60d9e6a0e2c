import { promises as dnsPromises, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { DomainError } from "../../errors";

/**
 * Where webhook deliveries may go. Webhook URLs are user-supplied, so by default they may only
 * reach public unicast addresses; `allowLoopback` (development and tests only, never in
 * production) additionally admits loopback (127.0.0.0/8, ::1, localhost) and nothing else.
 */
export interface OutboundPolicy {
  allowLoopback: boolean;
}

/** Resolves a host name to all its addresses, like `dns.promises.lookup(host, { all: true })`. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** The `code` of the error `guardedLookup` fails with when a destination address is refused. */
export const ADDRESS_BLOCKED_CODE = "EADDRBLOCKED";

const defaultResolver: Resolver = (hostname) => dnsPromises.lookup(hostname, { all: true });

/** IANA's global unicast block: every IPv6 address outside it is reserved, private or special. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");
/** NAT64 well-known prefix (RFC 6052): the last 32 bits are the IPv4 address it reaches. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

const IPV4_LABELS: Record<string, string> = {
  unspecified: "an unspecified",
  broadcast: "a broadcast",
  multicast: "a multicast",
  linkLocal: "a link-local",
  loopback: "a loopback",
  carrierGradeNat: "a carrier-grade NAT",
  private: "a private",
};

const IPV6_LABELS: Record<string, string> = {
  unspecified: "an unspecified",
  linkLocal: "a link-local",
  multicast: "a multicast",
  loopback: "a loopback",
  uniqueLocal: "a unique local (private)",
  deprecatedSiteLocal: "a site-local (private)",
  rfc6145: "an IPv4-translated",
  rfc6052: "a NAT64 local-use",
  teredo: "a Teredo",
  benchmarking: "a benchmarking",
  discard: "a discard-only",
};

/** Why an IPv4 address is refused ("a private" etc.), or null when it may be connected to. */
function ipv4Refusal(addr: ipaddr.IPv4, allowLoopback: boolean): string | null {
  const range = addr.range();
  if (range === "unicast") return null;
  if (range === "loopback" && allowLoopback) return null;
  // reserved, documentation, benchmarking (198.18/15), 240/4, as112, amt, ...
  return IPV4_LABELS[range] ?? "a reserved";
}

function ipv6Refusal(addr: ipaddr.IPv6, policy: OutboundPolicy): string | null {
  // ::ffff:a.b.c.d is the IPv4 address itself on a dual-stack socket: judge it as IPv4.
  if (addr.isIPv4MappedAddress()) return ipv4Refusal(addr.toIPv4Address(), policy.allowLoopback);
  const range = addr.range();
  if (range === "loopback" && policy.allowLoopback) return null;
  // NAT64 and 6to4 reach the IPv4 address they embed, through a gateway or relay: judge that
  // address, and never admit loopback through them (it would be the gateway's, not ours).
  if (addr.match(NAT64_WELL_KNOWN)) {
    const embedded = ipv4Refusal(ipv4FromParts(addr.parts[6], addr.parts[7]), false);
    return embedded && `an address embedding ${embedded} IPv4`;
  }
  if (range === "6to4") {
    const embedded = ipv4Refusal(ipv4FromParts(addr.parts[1], addr.parts[2]), false);
    return embedded && `an address embedding ${embedded} IPv4`;
  }
  if (range === "unicast" && addr.match(IPV6_GLOBAL_UNICAST)) return null;
  // IPv4-compatible ::a.b.c.d, ULA, link-local, Teredo, documentation, ... are all refused.
  return IPV6_LABELS[range] ?? "a reserved";
}

function ipv4FromParts(high = 0, low = 0): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * Why an address is refused, as "a private", "a loopback", ... (the caller appends " address"),
 * or null when it may be connected to. Only canonical address text is judged (what DNS returns
 * and what WHATWG URL parsing produces); anything else is refused.
 */
function addressRefusal(ip: string, policy: OutboundPolicy): string | null {
  const text = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const kind = isIP(text);
  try {
    if (kind === 4) return ipv4Refusal(ipaddr.IPv4.parse(text), policy.allowLoopback);
    if (kind === 6) return ipv6Refusal(ipaddr.IPv6.parse(canonicalIPv6(text)), policy);
  } catch {
    // fall through: refused
  }
  return "an unrecognised";
}

/**
 * IPv6 text in WHATWG's canonical hex form, without a zone. ipaddr.js reads the deprecated
 * IPv4-compatible form `::a.b.c.d` as IPv4-mapped `::ffff:a.b.c.d`; the URL parser does not.
 */
function canonicalIPv6(text: string): string {
  const withoutZone = text.split("%")[0]!;
  return new URL(`http://[${withoutZone}]/`).hostname.slice(1, -1);
}

/** True when an IP address (v4 or v6 text) may be connected to under the policy. */
export function isAllowedAddress(ip: string, policy: OutboundPolicy): boolean {
  return addressRefusal(ip, policy) === null;
}

function invalidUrl(reason: string): DomainError {
  return new DomainError("INVALID_INPUT", `Invalid parameter url: ${reason}`);
}

/** The URL's host without IPv6 brackets or trailing dots ("localhost." is "localhost"). */
function hostOf(url: URL): string {
  const host = url.hostname.startsWith("[") && url.hostname.endsWith("]") ? url.hostname.slice(1, -1) : url.hostname;
  return host.replace(/\.+$/, "").toLowerCase();
}

function isLocalhostName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

/**
 * Sync checks at registration: http(s) only, no userinfo, a host, no IP literal outside public
 * unicast (or loopback when allowed); `localhost` and `*.localhost` count as loopback. Numeric
 * tricks (`http://2130706433/`, `http://0177.0.0.1/`, `http://0x7f.1/`) are normalised to
 * 127.0.0.1 by WHATWG URL parsing before the check. Throws
 * DomainError("INVALID_INPUT", "Invalid parameter url: <reason>"). Returns the parsed URL.
 *
 * IP-literal URLs never go through a `lookup` function, so the delivery worker runs this again
 * before each request; `guardedLookup` covers names.
 */
export function checkWebhookUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl("not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalidUrl("only http and https URLs are accepted");
  if (url.username !== "" || url.password !== "") throw invalidUrl("credentials (user:password@) are not accepted in the URL");
  const host = hostOf(url);
  if (host === "") throw invalidUrl("a host is required");
  if (isIP(host) !== 0 || url.hostname.startsWith("[")) {
    const refusal = addressRefusal(host, policy);
    if (refusal) throw invalidUrl(`the host is ${refusal} address (${host}); only public addresses are accepted`);
  } else if (isLocalhostName(host) && !policy.allowLoopback) {
    throw invalidUrl(`the host is a loopback name (${host}); only public addresses are accepted`);
  }
  return url;
}

/**
 * Registration-time DNS check: resolves the URL's host (all addresses) and throws the same
 * DomainError if any address is refused or the name does not resolve. IP literals and
 * localhost names are judged without DNS. Takes an optional resolver for tests; the default is
 * `dns.promises.lookup(host, { all: true })`. DNS can change after registration (rebinding), so
 * deliveries connect through `guardedLookup` as well.
 */
export async function assertPublicDestination(url: URL, policy: OutboundPolicy, resolve: Resolver = defaultResolver): Promise<void> {
  checkWebhookUrl(url.href, policy);
  const host = hostOf(url);
  if (isIP(host) !== 0 || url.hostname.startsWith("[") || isLocalhostName(host)) return;
  let addresses: { address: string; family: number }[];
  // One answer whether the name is unknown or points inside a network: saying what it resolves
  // to (or that it resolves at all) would make registration an oracle for internal DNS.
  const notPublic = () => invalidUrl(`${host} does not resolve to a public address; only public addresses are accepted`);
  try {
    addresses = await resolve(host);
  } catch {
    throw notPublic();
  }
  if (addresses.length === 0 || addresses.some(({ address }) => addressRefusal(address, policy) !== null)) throw notPublic();
}

function familyOf(family: number | "IPv4" | "IPv6" | undefined): 0 | 4 | 6 {
  if (family === 4 || family === "IPv4") return 4;
  if (family === 6 || family === "IPv6") return 6;
  return 0;
}

/**
 * A `lookup` function for node:http/https request options (net.LookupFunction, honouring
 * `options.all` and `options.family`). It resolves with dns.lookup (or the injected resolver)
 * and fails with an Error whose code is "EADDRBLOCKED" when an address the socket would connect
 * to is refused: the check on the address actually connected to, for every attempt, so a name
 * that resolved to a public address at registration and to a private one now (DNS rebinding)
 * is never reached. Any refused address among several fails the whole lookup.
 */
export function guardedLookup(policy: OutboundPolicy, resolve?: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    const family = familyOf(options.family);
    const pending: Promise<{ address: string; family: number }[]> = resolve
      ? resolve(hostname).then((list) => (family === 0 ? list : list.filter((entry) => entry.family === family)))
      : dnsPromises.lookup(hostname, { all: true, family, hints: options.hints });
    pending
      .then((list) => {
        if (list.length === 0) {
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname });
        }
        for (const { address } of list) {
          if (addressRefusal(address, policy)) {
            // The message reaches the subscriber's delivery log: it names no address, which would map the
            // network behind the service; the refused address stays on the error for the service's own logs.
            throw Object.assign(new Error(`webhook destination ${hostname} does not resolve to a public address; outbound connection refused`), {
              code: ADDRESS_BLOCKED_CODE,
              hostname,
              address,
            });
          }
        }
        return list.map(({ address, family: addressFamily }): LookupAddress => ({ address, family: addressFamily }));
      })
      .then(
        (list) => {
          if (options.all) callback(null, list);
          else callback(null, list[0]!.address, list[0]!.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, options.all ? [] : ""),
      );
  };
}

/**
 * Reads a loopback switch (WEBHOOK_ALLOW_LOOPBACK for deliveries, OUTBOUND_ALLOW_LOOPBACK for the
 * sites the service fetches to verify a claim): loopback destinations are allowed only when it is
 * "true" or "1". Throws when it is set and NODE_ENV=production: production reaches public addresses only.
 */
export function outboundPolicyFromEnv(env: NodeJS.ProcessEnv = process.env, variable = "WEBHOOK_ALLOW_LOOPBACK"): OutboundPolicy {
  const value = env[variable]?.trim().toLowerCase();
  const allowLoopback = value === "true" || value === "1";
  if (allowLoopback && env.NODE_ENV === "production") {
    throw new Error(`${variable} is set while NODE_ENV=production: the service must only reach public addresses; unset ${variable}`);
  }
  return { allowLoopback };
}
