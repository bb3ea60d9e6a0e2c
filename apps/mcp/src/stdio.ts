import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createDirectoryClient } from "@directory/sdk";
import { createMcpServer } from "@directory/mcp";

// stdout carries the protocol: everything else goes to stderr.
const baseUrl = process.env.DIRECTORY_URL ?? "http://localhost:3000";
const apiKey = process.env.DIRECTORY_API_KEY || undefined;

const server = createMcpServer(createDirectoryClient({ baseUrl, apiKey }));
try {
  await server.connect(new StdioServerTransport());
  console.error(`business-directory MCP server on stdio, calling ${baseUrl}${apiKey ? " with an API key" : " anonymously"}`);
} catch (error) {
  console.error("business-directory MCP server failed to start:", error);
  process.exit(1);
}
