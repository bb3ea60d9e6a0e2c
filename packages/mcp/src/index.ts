export { createMcpServer } from "./server";
export { mountMcp, MCP_PATH, type MountMcpOptions } from "./http";
export { DEFAULT_SSE_LIMITS } from "./legacy-sse";
export { MAX_STRING_LENGTH, truncateStrings } from "./tools/shared";
export { listedOutputSchema } from "./tools/tool-output";
export { compactInput } from "./tools/tools-list";
export { keepListed, listingsOnce, profileView } from "./tools/tool-views";
export { MCP_TOKEN_BUDGETS, toolsListParts } from "./token-budgets";
