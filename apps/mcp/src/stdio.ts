import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createDirectoryClient } from "@directory/sdk";
import { createMcpServer } from "@directory/mcp";
import { readMcpEnvironment, type McpEnvironment } from "./env";

// stdout carries the protocol: everything else goes to stderr.
let env: McpEnvironment;
try {
  env = readMcpEnvironment();
} catch (error) {
  // A bad variable is the operator's to fix: one line naming it, not a stack.
  console.error(`business-directory MCP server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const { DIRECTORY_URL: baseUrl, DIRECTORY_API_KEY: apiKey } = env;

const client = createDirectoryClient({ baseUrl, apiKey });
try {
  // One server per connection, of the era its opening picks: server/discover (2026-07-28) or initialize.
  serveStdio(() => createMcpServer(client));
  console.error(`business-directory MCP server on stdio, calling ${baseUrl}${apiKey ? " with an API key" : " anonymously"}`);
} catch (error) {
  console.error("business-directory MCP server failed to start:", error);
  process.exit(1);
}
