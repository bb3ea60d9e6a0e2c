import { isIPv4, isIPv6 } from "node:net";

/**
 * The rate-limit bucket for a client address. IPv6 clients are bucketed by their /64, since one
 * subscriber usually holds a whole /64 and could otherwise rotate addresses for fresh buckets.
 * IPv4-mapped IPv6 addresses count as the IPv4 address they carry.
 */
export function clientBucketOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (isIPv4(ip)) return ip;
  if (isIPv6(ip)) return `${expandIPv6(ip).slice(0, 4).join(":")}::/64`;
  return `unknown:${ip.slice(0, 64)}`;
}

function expandIPv6(ip: string): string[] {
  const [head = "", tail = ""] = ip.split("%")[0]!.split("::");
  const headParts = head ? head.split(":") : [];
  const tailParts = tail ? tail.split(":") : [];
  const missing = 8 - headParts.length - tailParts.length;
  const parts = ip.includes("::") ? [...headParts, ...Array<string>(missing).fill("0"), ...tailParts] : headParts;
  return parts.map((part) => part.toLowerCase().replace(/^0+(?=.)/, ""));
}
