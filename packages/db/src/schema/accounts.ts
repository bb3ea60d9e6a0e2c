import { boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/*
 * A person's account and its sign-in state. The four tables are the models of the authentication
 * library (better-auth: user, session, account, verification); their property names are the
 * library's field names, so its drizzle adapter reads and writes them as they are.
 */

/** A person, known by email alone (better-auth "user"). */
export const accounts = pgTable("accounts", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** Unused by sign-in by email; the library requires it. */
  name: text("name").notNull().default(""),
  /** Lower-cased by the library before it is stored. */
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  /** Set by an operator: the account's sessions are deleted and its keys refused from then on. */
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
});

/** A signed-in browser (better-auth "session"). `token` is a SHA-256 of the cookie's token, never the token. */
export const accountSessions = pgTable(
  "account_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    token: text("token").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("account_sessions_user_idx").on(t.userId)],
);

/** Sign-in methods linked to an account (better-auth "account"); sign-in by email needs none, the library requires the table. */
export const accountCredentials = pgTable(
  "account_credentials",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("account_credentials_user_idx").on(t.userId)],
);

/** One-time sign-in links (better-auth "verification"); `identifier` holds a hash of the link's token. */
export const signInTokens = pgTable(
  "sign_in_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sign_in_tokens_identifier_idx").on(t.identifier)],
);

export type Account = typeof accounts.$inferSelect;
