import { z } from "zod";
import { completable, type McpServer } from "@modelcontextprotocol/server";
import { KEYWORD_QUERY_LENGTH } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { completeCategory } from "./resources";

const city = z.string().describe('A city, e.g. "Mumbai"');

/** search_by_keyword takes a query of KEYWORD_QUERY_LENGTH: the prompt hands it one it will accept as written. */
function keywordQuery(need: string, category: string): string {
  const words = need.replace(/["\\]/g, " ").replace(/\s+/g, " ").trim().slice(0, KEYWORD_QUERY_LENGTH.max).trim();
  return words.length >= KEYWORD_QUERY_LENGTH.min ? words : category;
}

/** The prompts; their category argument completes to the directory's categories (directory://categories). */
export function registerPrompts(server: McpServer, client: DirectoryClient) {
  const category = completable(z.string().describe('A business category, e.g. "dentist" (directory://categories lists them)'), completeCategory(client));
  server.registerPrompt(
    "compare_top_n",
    {
      title: "Compare the top businesses",
      description: "Find the top N businesses of a category in a city and compare them.",
      argsSchema: z.object({ category, city, n: z.string().describe("How many businesses to compare, 2 to 10") }),
    },
    ({ category, city, n }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `Find the top ${n} ${category} businesses in ${city} and compare them.
1. Call search_businesses with category "${category}", city "${city}" and limit ${n}. Tell me that results are ordered by plan tier (paid tiers first), as its rankingModel says. If nothing is found, call get_available_cities for "${category}" and suggest cities.
2. Call get_listicle with the same category and city to see which profiles are most complete (not a paid placement).
3. Call compare_businesses on pairs of the leading slugs, and get_offers for any whose prices matter.
4. Summarise the differences in a short table: name, rating, plan tier, verified, services, USP.`,
          },
        },
      ],
    }),
  );
  server.registerPrompt(
    "find_and_contact",
    {
      title: "Find a business and contact it",
      description: "Find a business that fits a need and, only with the user's explicit consent, send it the user's enquiry.",
      argsSchema: z.object({ category, city, need: z.string().describe("What the user needs, in their words") }),
    },
    ({ category, city, need }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `I need a ${category} in ${city}: ${need}
1. Call search_businesses with category "${category}" and city "${city}", and search_by_keyword with query "${keywordQuery(need, category)}" and city "${city}", to find candidates. Mention that search_businesses results are ordered by plan tier. If a call names closest values for an unknown category or city, retry with the closest one; if search_by_keyword reports wordsDropped, say which words matched nothing.
2. Call get_business_profile and get_buyer_questions for the best two or three, and get_offers if prices matter. Recommend one and explain why.
3. Before any contact, ask me explicitly whether I agree to be contacted by that specific business, showing the consent statement: which business, and which of my details (name, email or phone, message) it will receive. Ask me for the contact details you need.
4. Only if I clearly say yes, call submit_lead with that exact statement in consent.statementShownToUser and a fresh idempotencyKey. If I do not agree, do not call submit_lead.
5. Give me the leadId; get_lead_status shows its progress.`,
          },
        },
      ],
    }),
  );
}
