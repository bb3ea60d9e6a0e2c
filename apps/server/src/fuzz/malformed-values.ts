/** The malformed values every door is fed: query and path values, JSON values, authorizations, tRPC inputs and bodies. */

const HUGE_LENGTH = 100 * 1024;
const HUGE = "a".repeat(HUGE_LENGTH);
/** Under the 100 000-byte body limit once wrapped, so it reaches the procedure. */
const BIG = "b".repeat(99_000);
/** Under the 16 KB URL limit, so a GET carrying it reaches the procedure. */
const LONG_FOR_URL = "c".repeat(10_000);

interface QueryValue {
  kind: string;
  /** Already escaped for a URL. */
  raw: string;
  /** A known parameter carrying it must be refused. */
  refuse?: boolean;
}

/** Values for a query or path parameter, escaped as they go on the wire. */
export const QUERY_VALUES: QueryValue[] = [
  { kind: "empty", raw: "" },
  { kind: "word", raw: "abc" },
  { kind: "number", raw: "12345" },
  { kind: "negative", raw: "-1" },
  { kind: "zero", raw: "0" },
  { kind: "float", raw: "1.5" },
  { kind: "exponent", raw: "1e309" },
  { kind: "nan", raw: "NaN" },
  { kind: "hex", raw: "0x1F" },
  { kind: "max-int", raw: "99999999999999999999999" },
  { kind: "boolean", raw: "true" },
  { kind: "null-word", raw: "null" },
  { kind: "json-object", raw: encodeURIComponent('{"a":1}') },
  { kind: "json-array", raw: encodeURIComponent("[1,2]") },
  { kind: "nested-brackets", raw: encodeURIComponent("[".repeat(3_000)) },
  { kind: "nested-object", raw: encodeURIComponent('{"a":'.repeat(600) + "1" + "}".repeat(600)) },
  { kind: "nul", raw: "a%00b", refuse: true },
  { kind: "soh", raw: "%01", refuse: true },
  { kind: "del", raw: "x%7F", refuse: true },
  { kind: "c1-control", raw: "%C2%80", refuse: true },
  { kind: "lone-surrogate-utf8", raw: "%ED%A0%80" },
  { kind: "bad-escape", raw: "%zz" },
  { kind: "lone-percent", raw: "%" },
  { kind: "truncated-escape", raw: "ab%4" },
  { kind: "truncated-utf8", raw: "%E2%82" },
  { kind: "invalid-utf8", raw: "%FF%FE" },
  { kind: "overlong-utf8", raw: "%C0%AF" },
  { kind: "raw-latin1-byte", raw: "caf\u00e9" },
  { kind: "unicode", raw: encodeURIComponent("ü日本🙂") },
  { kind: "whitespace", raw: "%20%20%09" },
  { kind: "crlf", raw: "a%0D%0ASet-Cookie:x=1" },
  { kind: "path-traversal", raw: "..%2F..%2Fetc%2Fpasswd" },
  { kind: "quote", raw: encodeURIComponent("' OR '1'='1") },
  { kind: "html", raw: encodeURIComponent("<script>alert(1)</script>") },
  { kind: "long-under-url-limit", raw: LONG_FOR_URL },
  { kind: "huge-100kb", raw: HUGE },
];

/** JSON values for a tRPC input field or an MCP tool argument. */
export interface JsonValue {
  kind: string;
  value: unknown;
  /** Any door must refuse it whatever the field's type. */
  refuse?: boolean;
  /** Too long for a GET URL: only sent in bodies. */
  bodyOnly?: boolean;
}

export function nestedObject(depth: number): unknown {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}
export function nestedArray(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

export const JSON_VALUES: JsonValue[] = [
  { kind: "null", value: null },
  { kind: "number", value: 123 },
  { kind: "negative", value: -1 },
  { kind: "float", value: 1.5 },
  { kind: "huge-number", value: 1e308 },
  { kind: "boolean", value: true },
  { kind: "empty-string", value: "" },
  { kind: "number-string", value: "42" },
  { kind: "array", value: ["a", "b"] },
  { kind: "object", value: { a: 1 } },
  { kind: "nul-string", value: "a\u0000b", refuse: true },
  { kind: "control-string", value: "\u0001\u001b[31m", refuse: true },
  { kind: "del-string", value: "x\u007f", refuse: true },
  { kind: "c1-string", value: "\u0085", refuse: true },
  { kind: "lone-high-surrogate", value: "a\ud800b", refuse: true },
  { kind: "lone-low-surrogate", value: "\udc00", refuse: true },
  { kind: "unicode", value: "ü日本🙂" },
  { kind: "deep-object-12", value: nestedObject(12), refuse: true },
  { kind: "deep-array-30", value: nestedArray(30), refuse: true },
  { kind: "nul-key", value: { "a\u0000": "x" }, refuse: true },
  { kind: "proto-key", value: JSON.parse('{"__proto__":{"polluted":true}}') },
  { kind: "long-string-10kb", value: LONG_FOR_URL },
  { kind: "big-string-99kb", value: BIG, bodyOnly: true },
  { kind: "huge-string-100kb", value: HUGE, bodyOnly: true },
];

/**
 * Instants for the parameters that name one (openAt, asOf): outside the years 0001 to 9999 once
 * read as UTC, not a calendar date, not ISO 8601 at all; and the first and last accepted, which
 * must not be a 5xx either.
 */
export const INSTANT_VALUES: { kind: string; value: string; refuse: boolean }[] = [
  { kind: "instant year 0", value: "0000-01-01T00:00:00Z", refuse: true },
  { kind: "instant year 10000", value: "10000-01-01T00:00:00Z", refuse: true },
  { kind: "instant year 10000 date only", value: "10000-01-01", refuse: true },
  { kind: "instant expanded year", value: "+275760-09-13T00:00:00Z", refuse: true },
  { kind: "instant negative year", value: "-000001-01-01T00:00:00Z", refuse: true },
  { kind: "instant month 13 day 40", value: "2026-13-40T00:00:00Z", refuse: true },
  { kind: "instant February 30", value: "2026-02-30T00:00:00Z", refuse: true },
  { kind: "instant hour 25", value: "2026-05-10T25:00:00Z", refuse: true },
  { kind: "instant offset +25:00", value: "2026-05-10T09:30:00+25:00", refuse: true },
  { kind: "instant year 9999 with -14:00 (10000 in UTC)", value: "9999-12-31T23:59:59-14:00", refuse: true },
  { kind: "instant year 0001 with +14:00 (year 0 in UTC)", value: "0001-01-01T00:00:00+14:00", refuse: true },
  { kind: "instant huge number", value: "99999999999999999999", refuse: true },
  { kind: "instant epoch milliseconds", value: "1778400000000", refuse: true },
  { kind: "instant first accepted", value: "0001-01-01T00:00:00Z", refuse: false },
  { kind: "instant last accepted", value: "9999-12-31T23:59:59Z", refuse: false },
  { kind: "instant nanoseconds", value: "2026-05-10T09:30:00.123456789+02:00", refuse: false },
];

/** Authorization header values that are not a usable key (plus valid keys, added at run time). */
export function badAuthorizations(wellFormedKey: string): { kind: string; value: string | string[] }[] {
  const wrongChecksum = wellFormedKey.slice(0, -1) + (wellFormedKey.endsWith("A") ? "B" : "A");
  return [
    { kind: "auth-no-scheme", value: wellFormedKey },
    { kind: "auth-bearer-only", value: "Bearer" },
    { kind: "auth-bearer-space", value: "Bearer " },
    { kind: "auth-short-key", value: "Bearer bdk_x" },
    { kind: "auth-10kb-token", value: `Bearer bdk_dev_${"A".repeat(10_240)}` },
    { kind: "auth-wrong-checksum", value: `Bearer ${wrongChecksum}` },
    { kind: "auth-unknown-key", value: `Bearer ${wellFormedKey.replace(/^bdk_dev_/, "bdk_ptr_")}` },
    { kind: "auth-latin1-bytes", value: "Bearer bdk_dev_caf\u00e9\u00ff" },
    { kind: "auth-utf8-bytes", value: `Bearer ${Buffer.from("bdk_dev_日本🙂", "utf8").toString("latin1")}` },
    { kind: "auth-basic", value: "Basic dXNlcjpwYXNz" },
    { kind: "auth-lowercase-scheme", value: `bearer ${wrongChecksum}` },
    { kind: "auth-double-space", value: `Bearer  ${wellFormedKey}` },
    { kind: "auth-two-headers", value: [`Bearer ${wellFormedKey}`, "Bearer bdk_x"] },
    { kind: "auth-comma-list", value: `Bearer ${wellFormedKey}, Bearer bdk_x` },
    { kind: "auth-quoted", value: `Bearer "${wellFormedKey}"` },
  ];
}

/** superjson `meta` that a careless deserializer trips over. */
const SUPERJSON_METAS: { kind: string; input: unknown }[] = [
  { kind: "meta bigint of a word", input: { json: { slug: "x" }, meta: { values: { slug: ["bigint"] } } } },
  { kind: "meta invalid Date", input: { json: { slug: "x" }, meta: { values: { slug: ["Date"] } } } },
  { kind: "meta invalid regexp", input: { json: { slug: "/(/" }, meta: { values: { slug: ["regexp"] } } } },
  { kind: "meta set of a string", input: { json: { slug: "x" }, meta: { values: { slug: ["set"] } } } },
  { kind: "meta map of a string", input: { json: { slug: "x" }, meta: { values: { slug: ["map"] } } } },
  { kind: "meta unknown class", input: { json: { slug: {} }, meta: { values: { slug: ["class", "Nope"] } } } },
  { kind: "meta unknown custom", input: { json: { slug: "x" }, meta: { values: { slug: ["custom", "nope"] } } } },
  { kind: "meta symbol", input: { json: { slug: "x" }, meta: { values: { slug: ["symbol", "x"] } } } },
  { kind: "meta unknown type", input: { json: { slug: "x" }, meta: { values: { slug: ["nope"] } } } },
  { kind: "meta number NaN", input: { json: { limit: "NaN" }, meta: { values: { limit: ["number"] } } } },
  { kind: "meta undefined", input: { json: { slug: null }, meta: { values: { slug: ["undefined"] } } } },
  { kind: "meta proto path", input: JSON.parse('{"json":{"slug":"x"},"meta":{"values":{"__proto__.polluted":["Date"]}}}') },
  { kind: "meta referential proto", input: { json: { slug: "x" }, meta: { referentialEqualities: { slug: ["__proto__.polluted"] } } } },
  { kind: "meta referential constructor", input: { json: { slug: "x" }, meta: { referentialEqualities: { slug: ["constructor.prototype.polluted"] } } } },
  { kind: "meta missing path", input: { json: { slug: "x" }, meta: { values: { "a.b.c.d": ["Date"] } } } },
  { kind: "meta as string", input: { json: { slug: "x" }, meta: "x" } },
  { kind: "meta as array", input: { json: { slug: "x" }, meta: [1, 2] } },
  { kind: "meta values array", input: { json: { slug: "x" }, meta: { values: ["Date"] } } },
  { kind: "meta root type", input: { json: "x", meta: { values: ["bigint"] } } },
  { kind: "meta huge path", input: { json: { slug: "x" }, meta: { values: { ["a.".repeat(2_000) + "a"]: ["Date"] } } } },
];

/** Whole inputs (not per field), as the `input` JSON. */
export const WHOLE_INPUTS: { kind: string; input: unknown; refuse?: boolean }[] = [
  { kind: "input json null", input: { json: null } },
  { kind: "input json number", input: { json: 123 } },
  { kind: "input json string", input: { json: "x" } },
  { kind: "input json array", input: { json: [1, 2] } },
  { kind: "input json empty object", input: { json: {} } },
  { kind: "input without json wrapper", input: { slug: "x", category: "x" } },
  { kind: "input bare null", input: null },
  { kind: "input bare number", input: 7 },
  { kind: "input deep 12", input: { json: nestedObject(12) }, refuse: true },
  { kind: "input deep 31", input: { json: nestedArray(31) }, refuse: true },
  { kind: "input 500 keys", input: { json: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])) } },
  { kind: "input NUL key", input: { json: { "\u0000": "x" } }, refuse: true },
  ...SUPERJSON_METAS,
];

/** Raw `input=` query values that are not JSON or not decodable. */
export const RAW_INPUT_PARAMS: { kind: string; raw: string }[] = [
  { kind: "input empty", raw: "" },
  { kind: "input not JSON", raw: "not-json" },
  { kind: "input truncated JSON", raw: encodeURIComponent('{"json":') },
  { kind: "input bad escape", raw: "%zz" },
  { kind: "input lone percent", raw: "%" },
  { kind: "input raw NUL in JSON string", raw: encodeURIComponent('{"json":{"slug":"a').concat("%00", encodeURIComponent('"}}')) },
  { kind: "input lone surrogate bytes", raw: encodeURIComponent('{"json":{"slug":"').concat("%ED%A0%80", encodeURIComponent('"}}')) },
  { kind: "input nested 15000", raw: "[".repeat(15_000) },
  { kind: "input nested 33 objects", raw: encodeURIComponent('{"json":'.repeat(33) + "1" + "}".repeat(33)) },
  { kind: "input single quotes", raw: encodeURIComponent("{'json':{}}") },
  { kind: "input trailing garbage", raw: encodeURIComponent('{"json":{}}xyz') },
  { kind: "input BOM", raw: encodeURIComponent('\ufeff{"json":{}}') },
];

/** POST bodies that are not the JSON a procedure wants. */
export const RAW_BODIES: { kind: string; body: string | Buffer; contentType?: string }[] = [
  { kind: "body bad JSON", body: "{bad json" },
  { kind: "body truncated JSON", body: '{"json":' },
  { kind: "body empty", body: "" },
  { kind: "body NUL bytes", body: "\u0000\u0000\u0000" },
  { kind: "body nested 20000", body: "[".repeat(20_000) },
  { kind: "body nested 20000 objects", body: '{"a":'.repeat(20_000) },
  { kind: "body nested 40 closed", body: '{"json":' + "[".repeat(40) + "]".repeat(40) + "}" },
  { kind: "body JSON null", body: "null" },
  { kind: "body JSON string", body: '"x"' },
  { kind: "body trailing garbage", body: '{"json":{}}}}' },
  { kind: "body BOM", body: '\ufeff{"json":{}}' },
  { kind: "body over 100 KB", body: JSON.stringify({ json: { slug: HUGE } }) },
  { kind: "body invalid UTF-8", body: Buffer.from([0x7b, 0x22, 0x6a, 0x73, 0x6f, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]) },
  { kind: "body UTF-16", body: Buffer.from('{"json":{"slug":"x"}}', "utf16le"), contentType: "application/json; charset=utf-16" },
  { kind: "content-type text/plain", body: '{"json":{"slug":"x"}}', contentType: "text/plain" },
  { kind: "content-type form", body: "json=1&slug=x", contentType: "application/x-www-form-urlencoded" },
  {
    kind: "content-type multipart",
    body: '--x\r\nContent-Disposition: form-data; name="slug"\r\n\r\nx\r\n--x--\r\n',
    contentType: "multipart/form-data; boundary=x",
  },
  { kind: "content-type multipart without boundary", body: "garbage", contentType: "multipart/form-data" },
  { kind: "content-type octet-stream", body: Buffer.from([0, 1, 2, 3, 255]), contentType: "application/octet-stream" },
  { kind: "content-type latin1 charset", body: '{"json":{"slug":"caf\u00e9"}}', contentType: "application/json; charset=latin1" },
  { kind: "content-type unknown charset", body: '{"json":{}}', contentType: "application/json; charset=nope" },
  { kind: "content-type garbage", body: '{"json":{}}', contentType: ";;;=" },
  { kind: "content-type none", body: '{"json":{}}', contentType: "" },
];
