/**
 * Text that owners or third parties wrote (descriptions, USPs, questions, offers) reaches agents as
 * data. Control characters, zero-width and bidirectional controls, and Unicode tag characters are
 * removed, because they can hide instructions from people while an agent still reads them; long
 * text is cut with a visible note.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\u{E0000}-\u{E007F}]/gu;

export const OWNER_TEXT_LIMITS = { short: 300, long: 1_000 } as const;

export function cleanOwnerText(text: string, maxLength: number): string {
  const visible = text.replace(HIDDEN_CHARACTERS, "");
  if (visible.length <= maxLength) return visible;
  return `${visible.slice(0, maxLength).trimEnd()}… [truncated]`;
}

export function cleanOptionalOwnerText(text: string | null, maxLength: number): string | null {
  return text === null ? null : cleanOwnerText(text, maxLength);
}
