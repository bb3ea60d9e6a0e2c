import { EnvironmentError } from "@directory/db";
import { readConfig, type ServerConfig } from "./config";
import { startServer } from "./start";

let config: ServerConfig;
try {
  config = readConfig();
} catch (error) {
  // A bad variable is the operator's to fix: one line naming it, not a stack.
  if (!(error instanceof EnvironmentError)) throw error;
  console.error(`directory service: ${error.message}`);
  process.exit(1);
}

const running = await startServer(config).catch((error: unknown) => {
  console.error("directory service failed to start:", error);
  process.exit(1);
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    running.logger.info({ signal }, "shutting down");
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        running.logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  });
}
