import { Command } from "commander";
import { registerAccountCommands } from "./account-commands";
import { registerAgencyCommands } from "./agency-commands";
import { registerCitationCommands } from "./citation-commands";
import { registerBusinessCommands } from "./business-commands";
import { registerClaimCommands } from "./claim-commands";
import { registerCorrectionCommands } from "./correction-commands";
import { registerDbCommands } from "./db-commands";
import { registerGraphCommands } from "./graph-commands";
import { registerImportCommands } from "./import-commands";
import { registerKeyCommands } from "./keys-commands";
import { registerOwnershipClaimCommands } from "./ownership-commands";
import { describeCliError } from "./errors";
import { adminEnvironment, type AdminEnvironment } from "./env";

let env: AdminEnvironment;
try {
  env = adminEnvironment();
} catch (error) {
  // A bad variable is the operator's to fix: one line naming it, not a stack.
  console.error(`admin: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const program = new Command("admin")
  .description("internal admin CLI of the business directory")
  .option("--url <url>", "directory service to talk to", env.DIRECTORY_URL)
  .option("--key <key>", "admin API key (default: DIRECTORY_ADMIN_KEY, then DATA_DIR/admin.key)");

registerKeyCommands(program);
registerAccountCommands(program);
registerAgencyCommands(program);
registerBusinessCommands(program);
registerClaimCommands(program);
registerOwnershipClaimCommands(program);
registerCorrectionCommands(program);
registerDbCommands(program);
registerGraphCommands(program);
registerCitationCommands(program);
registerImportCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(`admin: ${describeCliError(error, program.opts<{ url: string }>().url)}`);
  process.exit(1);
});
