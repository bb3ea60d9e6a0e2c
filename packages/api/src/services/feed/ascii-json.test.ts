import { isAscii } from "node:buffer";
import { describe, expect, it } from "vitest";
import { asciiJson } from "./ascii-json";

describe("asciiJson", () => {
  it("writes every character beyond ASCII as its escape, and the text parses to the same value", () => {
    const value = { name: "Café Zürich — 東京 🍜", plain: "abc", quote: 'a"b\\c', control: "\u0001" };
    const text = asciiJson(value);
    expect(isAscii(Buffer.from(text))).toBe(true);
    expect(text).toContain("Caf\\u00e9 Z\\u00fcrich \\u2014 \\u6771\\u4eac \\ud83c\\udf5c");
    expect(JSON.parse(text)).toEqual(value);
  });

  it("leaves ASCII JSON as JSON.stringify writes it", () => {
    const value = { a: [1, 2.5, null, true], b: 'x\ny\t"z"' };
    expect(asciiJson(value)).toBe(JSON.stringify(value));
    expect(asciiJson("naïve")).toBe('"na\\u00efve"');
  });
});
