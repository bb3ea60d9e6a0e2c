import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { queryInput } from "./query-input";

const schema = z.object({
  limit: z.number().int().default(10),
  open: z.boolean().optional(),
  q: z.string().optional(),
  tags: z.array(z.string()).optional(),
});
const read = (query: string) => queryInput({ url: `/api/v2/things?${query}` } as IncomingMessage, schema);

describe("a GET's query as a procedure's input", () => {
  it("makes numbers and booleans of the strings where the input takes them, and nothing else", () => {
    expect(read("limit=5&open=true&q=42")).toEqual({ limit: 5, open: true, q: "42" });
    // Left as strings for the input schema to refuse with its own message.
    expect(read("limit=five&open=yes")).toEqual({ limit: "five", open: "yes" });
    expect(read("limit=%20")).toEqual({ limit: " " });
  });

  it("leaves an empty value out, and keeps a repeated name's values for the schema to judge", () => {
    expect(read("limit=&q=")).toEqual({});
    expect(read("limit=1&limit=2")).toEqual({ limit: ["1", "2"] });
    expect(read("tags=a")).toEqual({ tags: ["a"] });
    expect(read("tags=a&tags=b")).toEqual({ tags: ["a", "b"] });
  });
});
