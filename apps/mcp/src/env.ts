import { z } from "zod";

/**
 * Every variable the stdio MCP server reads: the directory it calls and the key it sends. (It
 * opens no database, so it has none of the server's database settings.)
 */
export const mcpEnvironmentSchema = z.object({
  DIRECTORY_URL: z
    .string()
    .optional()
    .transform((raw) => raw || "http://localhost:3000")
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), { message: "must be a URL starting http:// or https://" }),
  /** Unset or empty: calls go anonymously. */
  DIRECTORY_API_KEY: z
    .string()
    .optional()
    .transform((raw) => raw || undefined),
});

export type McpEnvironment = z.output<typeof mcpEnvironmentSchema>;

/** The parsed environment, or an Error whose one-line message names each bad variable. */
export function readMcpEnvironment(env: NodeJS.ProcessEnv = process.env): McpEnvironment {
  const result = mcpEnvironmentSchema.safeParse(env);
  if (result.success) return result.data;
  throw new Error(`bad environment: ${result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ")}`);
}
