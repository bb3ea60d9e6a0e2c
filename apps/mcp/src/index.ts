export { createMcpServer, SERVER_NAME, SERVER_VERSION } from "./server";
export { mountMcp, MCP_PATH, type MountMcpOptions } from "./http";
