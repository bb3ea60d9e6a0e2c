/**
 * What an agent pays to read us, in o200k tokens (gpt-tokenizer), on the running built server:
 * the MCP tools/list (every turn), a 10-result category search and a profile, on MCP (its text
 * content and its structuredContent, which some clients bill as well) and on REST (the body).
 * Budgets: MCP_TOKEN_BUDGETS (packages/mcp/src/token-budgets.ts).
 */
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { MCP_TOKEN_BUDGETS, toolsListParts } from "@directory/mcp";

const SEARCH = { category: "dentist", city: "Mumbai", limit: 10 };

const tokens = (text: string) => encode(text).length;

interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: unknown;
}

function textOf(result: ToolResult): string {
  return (result.content ?? []).map((part) => part.text ?? "").join("\n");
}

export async function benchMcpTokens(baseUrl: string, note: (line: string) => void): Promise<void> {
  const client = new Client({ name: "bench-tokens", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/mcp`)));
  try {
    const { tools } = await client.listTools();
    const parts = toolsListParts(tools);
    const search = (await client.callTool({ name: "search_businesses", arguments: SEARCH })) as ToolResult;
    const listings = (search.structuredContent as { businesses?: { slug: string }[] } | undefined)?.businesses ?? [];
    const profile = listings[0] ? ((await client.callTool({ name: "get_business_profile", arguments: { slug: listings[0].slug } })) as ToolResult) : null;
    const restSearch = await (await fetch(`${baseUrl}/api/v2/businesses?category=${SEARCH.category}&city=${SEARCH.city}&limit=${SEARCH.limit}`)).text();
    const restProfile = listings[0] ? await (await fetch(`${baseUrl}/api/v2/entity-profile?slug=${listings[0].slug}`)).text() : "";
    const verdict = (value: number, target: number) =>
      `${value.toLocaleString("en")} (target ≤ ${target.toLocaleString("en")}) ${value <= target ? "✅" : "❌"}`;
    note("");
    note(`## What an agent reads (o200k tokens; ${tools.length} MCP tools)`);
    note("");
    note("| answer | MCP text | MCP structuredContent | REST body |");
    note("|---|---|---|---|");
    note(`| tools/list as a model reads it (name, description, inputSchema) | ${verdict(tokens(parts.asRead), MCP_TOKEN_BUDGETS.toolsAsRead)} | | |`);
    note(`| tools/list output schemas | ${verdict(tokens(parts.outputSchemas), MCP_TOKEN_BUDGETS.outputSchemas)} | | |`);
    note(`| server instructions | ${verdict(tokens(client.getInstructions() ?? ""), MCP_TOKEN_BUDGETS.instructions)} | | |`);
    note(
      `| ${listings.length}-result search (${SEARCH.category} in ${SEARCH.city}) | ${verdict(tokens(textOf(search)), MCP_TOKEN_BUDGETS.searchText)} | ${verdict(tokens(JSON.stringify(search.structuredContent ?? null)), MCP_TOKEN_BUDGETS.searchStructured)} | ${tokens(restSearch)} |`,
    );
    if (profile) note(`| a profile | ${tokens(textOf(profile))} | ${tokens(JSON.stringify(profile.structuredContent ?? null))} | ${tokens(restProfile)} |`);
  } finally {
    await client.close();
  }
}
