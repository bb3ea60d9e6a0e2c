import { describe, expect, it } from "vitest";
import { readMcpEnvironment } from "./env";

describe("the stdio MCP server's environment", () => {
  it("calls the local server anonymously by default; an empty key is no key", () => {
    expect(readMcpEnvironment({})).toEqual({ DIRECTORY_URL: "http://localhost:3000", DIRECTORY_API_KEY: undefined });
    expect(readMcpEnvironment({ DIRECTORY_URL: "", DIRECTORY_API_KEY: "" })).toEqual({ DIRECTORY_URL: "http://localhost:3000", DIRECTORY_API_KEY: undefined });
    expect(readMcpEnvironment({ DIRECTORY_URL: "https://directory.example", DIRECTORY_API_KEY: "k" })).toEqual({
      DIRECTORY_URL: "https://directory.example",
      DIRECTORY_API_KEY: "k",
    });
  });

  it("refuses a DIRECTORY_URL that is not an http(s) URL, naming it in one line", () => {
    expect(() => readMcpEnvironment({ DIRECTORY_URL: "directory.example" })).toThrow(
      /^bad environment: DIRECTORY_URL must be a URL starting http:\/\/ or https:\/\/$/,
    );
    expect(() => readMcpEnvironment({ DIRECTORY_URL: "file:///etc/passwd" })).toThrow(/DIRECTORY_URL/);
  });
});
