import { describe, expect, it } from "vitest";
import { clientBucketOf } from "./client-ip";

describe("client address buckets", () => {
  it("keeps IPv4 addresses whole and unwraps IPv4-mapped IPv6", () => {
    expect(clientBucketOf("203.0.113.7")).toBe("203.0.113.7");
    expect(clientBucketOf("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("buckets IPv6 clients by /64 whatever their notation", () => {
    const bucket = clientBucketOf("2001:db8:abcd:12::1");
    expect(bucket).toBe("2001:db8:abcd:12::/64");
    expect(clientBucketOf("2001:0db8:abcd:0012:ffff:ffff:ffff:ffff")).toBe(bucket);
    expect(clientBucketOf("2001:DB8:ABCD:12:0:0:0:42")).toBe(bucket);
    expect(clientBucketOf("2001:db8:abcd:13::1")).not.toBe(bucket);
    expect(clientBucketOf("::1")).toBe("0:0:0:0::/64");
  });
});
