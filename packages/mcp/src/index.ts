export { createMcpServer } from "./server";
export { DEFAULT_SSE_LIMITS, mountMcp, MCP_PATH, type MountMcpOptions } from "./http";
export { MAX_STRING_LENGTH, truncateStrings } from "./tools/shared";
export { listedOutputSchema } from "./tools/tool-output";
export { compactInput } from "./tools/tools-list";
export { keepListed, listingsOnce, profileView } from "./tools/tool-views";
