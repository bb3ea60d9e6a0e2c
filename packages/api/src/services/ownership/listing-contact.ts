import { eq } from "drizzle-orm";
import { businesses, type Db } from "@directory/db";

/** What a claim proves against: the listing's current website and email (its projection of the current claims). */
export interface ListingContact {
  id: string;
  slug: string;
  name: string;
  website: string | null;
  email: string | null;
}

export async function listingContact(db: Db, businessId: string): Promise<ListingContact> {
  const [row] = await db
    .select({ id: businesses.id, slug: businesses.slug, name: businesses.name, website: businesses.website, email: businesses.email })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!row) throw new Error(`business ${businessId} does not exist`);
  return row;
}

/** An address as a page may show it to someone who has not proven they read it: "o***@example.org". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${email.charAt(0)}***${email.slice(at)}`;
}
