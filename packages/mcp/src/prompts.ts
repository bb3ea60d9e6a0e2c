import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

const category = z.string().describe('A business category, e.g. "dentist"');
const city = z.string().describe('A city, e.g. "Mumbai"');

export function registerPrompts(server: McpServer) {
  server.registerPrompt(
    "compare_top_n",
    {
      title: "Compare the top businesses",
      description: "Find the top N businesses of a category in a city and compare them.",
      argsSchema: { category, city, n: z.string().describe("How many businesses to compare, 2 to 10") },
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
      argsSchema: { category, city, need: z.string().describe("What the user needs, in their words") },
    },
    ({ category, city, need }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `I need a ${category} in ${city}: ${need}
1. Call search_businesses with category "${category}" and city "${city}", and search_by_keyword with my need, to find candidates. Mention that search results are ordered by plan tier.
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
