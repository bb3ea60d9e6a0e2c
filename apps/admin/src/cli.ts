import { Command } from "commander";
import { registerBusinessCommands } from "./business-commands";
import { registerClaimCommands } from "./claim-commands";
import { registerCorrectionCommands } from "./correction-commands";
import { registerDbCommands } from "./db-commands";
import { registerGraphCommands } from "./graph-commands";
import { registerImportCommands } from "./import-commands";
import { registerKeyCommands } from "./keys-commands";
import { describeCliError } from "./errors";

const program = new Command("admin")
  .description("internal admin CLI of the business directory")
  .option("--url <url>", "directory service to talk to", process.env.DIRECTORY_URL ?? "http://localhost:3000")
  .option("--key <key>", "admin API key (default: DIRECTORY_ADMIN_KEY, then DATA_DIR/admin.key)");

registerKeyCommands(program);
registerBusinessCommands(program);
registerClaimCommands(program);
registerCorrectionCommands(program);
registerDbCommands(program);
registerGraphCommands(program);
registerImportCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(`admin: ${describeCliError(error, program.opts<{ url: string }>().url)}`);
  process.exit(1);
});
