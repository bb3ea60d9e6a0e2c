/** One mail the service sends (sign-in links, and later notices); plain text always, HTML beside it when given. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Where mail goes: SMTP (SMTP_URL), or .eml files under DATA_DIR/mail in the embedded default (mailer.ts). */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}
