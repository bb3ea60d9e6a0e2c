/**
 * What an agent may pay to read us over MCP, in o200k tokens (issue 42): tools/list as a model reads
 * it (name, description and inputSchema: what Claude Code, VS Code, Gemini CLI, the OpenAI Agents SDK
 * and LangChain send), the output schemas on their own, the server's instructions, and a 10-result
 * search as text and as structuredContent (Claude Code, VS Code and Codex give the model the
 * structured copy, the others the text). The tests and the bench measure against these.
 */
export const MCP_TOKEN_BUDGETS = {
  toolsAsRead: 2_500,
  outputSchemas: 3_000,
  instructions: 500,
  searchText: 1_200,
  searchStructured: 1_800,
} as const;

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
}

/** The two parts of tools/list the budgets count, as JSON text to be tokenized. */
export function toolsListParts(tools: readonly ListedTool[]) {
  return {
    asRead: JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))),
    outputSchemas: JSON.stringify(tools.map((tool) => tool.outputSchema)),
  };
}
