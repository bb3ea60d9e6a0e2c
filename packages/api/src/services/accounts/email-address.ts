/** An account's address as stored: trimmed and lower-cased, the one form every lookup by email uses. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
