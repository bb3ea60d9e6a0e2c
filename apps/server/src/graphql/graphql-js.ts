/**
 * graphql-js, always from its CommonJS entry. graphql 16 ships CJS and ESM builds without an
 * exports map: Node, and so graphql-http, load the CJS build, while vitest's resolver picks the ESM
 * one, and graphql-js refuses a schema or error made by the other copy ("from another module or
 * realm"). Importing graphql through this file keeps one copy in the server and in the tests.
 */
export * from "graphql/index.js";
