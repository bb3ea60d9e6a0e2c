import type { McpServer } from "@modelcontextprotocol/server";
import { ZBuyerQuestionsOutput, ZBySlugInput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";

export function registerGetBuyerQuestions(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_buyer_questions",
    {
      title: "Buyer questions for a business",
      description: "Questions buyers ask about a business, with the owner's or the category template's answers.",
      inputSchema: toolInput(ZBySlugInput),
      outputSchema: toolOutput(ZBuyerQuestionsOutput),
      annotations: READ_ONLY,
    },
    ({ slug }) => callProcedure(() => client.entities.getBuyerQuestions.query({ slug })),
  );
}
