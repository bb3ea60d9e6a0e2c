export { createApp, type AppDeps } from "./app";
export { readConfig, type ServerConfig } from "./config";
export { startServer, type RunningServer } from "./start";
export { ADMIN_KEY_FILE } from "./admin-key";
