import type { Response } from "express";
import type { Caller } from "./errors";
import { popularOrNothing } from "./errors";
import { layout, searchForms } from "./layout";

export async function homePage(res: Response, caller: Caller, baseUrl: string): Promise<void> {
  const main = `<h1>Find businesses worldwide, with facts you can check</h1>
<p>A directory of owner-verified and registry-sourced businesses, by category and city. Every fact on a profile says where it came from and how sure we are. Paid plans rank first in listings and are always labelled.</p>
${searchForms({}, 2)}
${await popularOrNothing(caller)}
<section aria-labelledby="agents"><h2 id="agents">For AI agents and developers</h2>
<ul>
<li><a href="/docs">API documentation</a>: REST, tRPC, GraphQL and webhooks</li>
<li><a href="/api/openapi.json">OpenAPI description</a> of the REST API</li>
<li><a href="/mcp">MCP server</a>: how to connect an agent (Streamable HTTP at <code>/api/mcp</code>)</li>
<li><a href="/llms.txt">llms.txt</a>: how agents should use the directory</li>
</ul></section>`;
  res.type("html").send(
    layout(
      {
        title: "Find businesses by category and city",
        description: "A worldwide business directory for people and AI agents: search by category and city; every fact carries its source and confidence.",
        canonical: `${baseUrl}/`,
      },
      main,
    ),
  );
}
