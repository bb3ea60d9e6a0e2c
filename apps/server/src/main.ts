import { readConfig } from "./config";
import { startServer } from "./start";

const running = await startServer(readConfig()).catch((error: unknown) => {
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
