import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The layering of ARCHITECTURE.md, enforced: imports point down only
 * (apps -> packages/mcp, packages/sdk -> packages/api -> packages/db), and an app never imports another app.
 */
const APPS = ["@directory/server", "@directory/server/*", "@directory/admin", "@directory/admin/*", "@directory/mcp-stdio"];
const anotherApp = { group: ["**/apps/*/src/**", "**/apps/*/src", ...APPS], message: "An app never imports another app: move what both need into a package." };
/** Tests may start a real server through its test harness (@directory/server/testing), never reach into another app's sources. */
const anotherAppsSources = { group: ["**/apps/*/src/**", "**/apps/*/src"], message: anotherApp.message };

function boundary(files, patterns, paths = []) {
  return { files, rules: { "no-restricted-imports": ["error", { patterns, paths }] } };
}

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/.data/**",
      "**/dist/**",
      "packages/sdk/build/**",
      "packages/db/migrations/**",
      "bench/results/**",
      "**/test-artifacts/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
      // Type-aware rules: each file is checked with the tsconfig of its package.
      parserOptions: {
        projectService: { allowDefaultProject: ["*.js", "*.mjs", "apps/*/build.mjs", "apps/*/bin/*.mjs", "scripts/*.mjs"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["error", "warn"] }],
      // Type-aware: a promise nobody awaits loses its error; an await of a non-promise hides a mistake.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false, attributes: false } }],
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
      "@typescript-eslint/no-for-in-array": "error",
      "@typescript-eslint/no-base-to-string": "error",
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "@typescript-eslint/prefer-optional-chain": "error",
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
    },
  },
  { files: ["**/*.js", "**/*.mjs"], ...tseslint.configs.disableTypeChecked },
  {
    // No import cycles: a module that needs one above it is in the wrong place (move it down). Type-only
    // imports are not followed (they leave no trace at run time), nor are packages outside ours.
    files: ["**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": importX.flatConfigs.typescript.settings["import-x/extensions"],
      "import-x/parsers": importX.flatConfigs.typescript.settings["import-x/parsers"],
      "import-x/resolver-next": [
        createTypeScriptImportResolver({ project: ["apps/*/tsconfig.json", "packages/*/tsconfig.json", "tsconfig.json"], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    files: ["apps/admin/**/*.ts", "bench/**/*.ts"],
    rules: { "no-console": "off" },
  },
  // packages/db is the bottom layer: it imports nothing of ours.
  boundary(
    ["packages/db/**"],
    [
      {
        group: ["@directory/*", "**/packages/*/src/**", "**/apps/**"],
        message: "packages/db imports nothing of ours: it is schema, migrations, client and data-only seed.",
      },
    ],
  ),
  // packages/api is the logic layer: no door, no app.
  boundary(
    ["packages/api/**"],
    [
      {
        group: ["@directory/sdk", "@directory/mcp", "@directory/mcp/*", "**/packages/mcp/**", "**/packages/sdk/**", "**/apps/**", ...APPS],
        message: "packages/api holds the logic; doors import it, never the reverse.",
      },
    ],
  ),
  // Apps are doors and wiring: no other app, and no query building outside the wiring that creates the database.
  boundary(
    ["apps/**"],
    [
      anotherApp,
      { group: ["drizzle-orm", "drizzle-orm/*"], message: "Queries belong in packages/api services; an app only wires the database (createDatabase)." },
    ],
  ),
  {
    // Wiring and developer tools that talk to the database directly (admin db chores, the OpenAPI example recorder), and tests with their fixtures.
    files: [
      "apps/admin/src/db-commands.ts",
      "apps/server/src/openapi-examples.ts",
      "apps/server/src/openapi-examples.generate.ts",
      "apps/**/*.test.ts",
      "apps/**/*-fixtures.ts",
    ],
    rules: { "no-restricted-imports": ["error", { patterns: [anotherAppsSources] }] },
  },
  // The MCP server is a client of the API through the SDK: it takes the procedures' schemas, never their code or the database.
  boundary(
    ["packages/mcp/**", "apps/mcp/**"],
    [
      {
        group: ["@directory/db", "@directory/db/*", "drizzle-orm", "drizzle-orm/*", "postgres", "@electric-sql/*"],
        message: "The MCP server reaches data only through the SDK.",
      },
      {
        regex: "^@directory/api(/(?!schemas$).*)?$",
        message: "The MCP server takes only the procedures' schemas (@directory/api/schemas) and calls them through the SDK.",
      },
      anotherApp,
    ],
  ),
);
