import type { Response } from "express";
import { escapeHtml } from "../html";
import { layout } from "./layout";

/**
 * How to connect an AI agent over MCP, for the person who followed the footer's "MCP server"
 * link: the endpoint itself speaks JSON-RPC to programs and answers a browser's GET with an error.
 */
export function mcpPage(res: Response, baseUrl: string): void {
  const endpoint = `${baseUrl}/api/mcp`;
  const config = JSON.stringify({ mcpServers: { "business-directory": { type: "http", url: endpoint } } }, null, 2);
  const main = `<h1>Connect an AI agent (MCP server)</h1>
<p>The directory is also a <a href="https://modelcontextprotocol.io/">Model Context Protocol</a> server: an AI assistant connected to it can search businesses by category, city, keywords, opening hours and distance, read profiles, compare businesses and send enquiries with the visitor's consent. The same limits and rules apply as to the <a href="/docs">API</a>.</p>
<h2 id="endpoint">Endpoint</h2>
<dl><dt>Streamable HTTP (recommended)</dt><dd><code>${escapeHtml(endpoint)}</code> (POST, JSON-RPC; clients send <code>Accept: application/json, text/event-stream</code>)</dd>
<dt>Legacy HTTP with server-sent events</dt><dd><code>${escapeHtml(`${baseUrl}/api/mcp/sse`)}</code></dd>
<dt>API key</dt><dd>Not needed to search and read. Owner tools need a business key, sent as <code>Authorization: Bearer &lt;key&gt;</code>.</dd></dl>
<p class="muted">Opening the endpoint in a browser shows an error: it answers MCP clients, not pages.</p>
<h2 id="configure">Add it to a client</h2>
<p>Most MCP clients take a server entry like this one in their configuration:</p>
<pre><code>${escapeHtml(config)}</code></pre>
<p>To try it from a terminal with the MCP Inspector (Node.js 22.19 or later):</p>
<pre><code>${escapeHtml(`npx -y -p node@22 -p @modelcontextprotocol/inspector mcp-inspector --cli ${endpoint} --transport http --method tools/list`)}</code></pre>
<p>The server describes its own tools, resources and prompts to the client (<code>tools/list</code>). For agents without MCP, <a href="/llms.txt">llms.txt</a> and the <a href="/api/openapi.json">OpenAPI description</a> say the same in other forms.</p>`;
  res
    .type("html")
    .send(
      layout(
        { title: "Connect an AI agent (MCP server)", description: "How to connect an AI agent to the directory's MCP server.", canonical: `${baseUrl}/mcp` },
        main,
      ),
    );
}
