import { fileURLToPath } from "node:url";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** The stdio MCP server as a desktop client starts it (its bin, built first when stale), calling the directory at `directoryUrl`. */
export function stdioToDirectory(directoryUrl: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: ["apps/mcp/bin/directory-mcp.mjs"],
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), DIRECTORY_URL: directoryUrl },
    stderr: "pipe",
  });
}
