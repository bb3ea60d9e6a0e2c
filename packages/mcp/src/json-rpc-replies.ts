import type { Response } from "express";

/** A JSON-RPC error answer with an HTTP status (-32000 is a server-defined refusal); nothing once headers went out. */
export function jsonRpcError(res: Response, status: number, message: string, code = -32000) {
  if (!res.headersSent) res.status(status).json({ jsonrpc: "2.0", error: { code, message }, id: null });
}
