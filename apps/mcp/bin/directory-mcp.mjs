#!/usr/bin/env node
// The stdio MCP server's command: plain node on the bundle (built first when a source changed;
// the build line goes to stderr, since stdout carries the protocol).
import { ensureBuilt } from "../build.mjs";

await ensureBuilt();
await import("../dist/stdio.js");
