/** Every public URL the service hands out is built here, from the configured base URL. */
export const publicUrls = {
  profile: (base: string, slug: string) => `${base}/business/${encodeURIComponent(slug)}`,
  agentProfile: (base: string, slug: string) => `${base}/business/${encodeURIComponent(slug)}/agent.json`,
  entityProfile: (base: string, slug: string) => `${base}/api/v2/entity-profile?slug=${encodeURIComponent(slug)}`,
  canonicalEntity: (base: string, id: string) => `${base}/entity/${id}?format=json`,
  browse: (base: string, category: string, city: string) => `${base}/browse?${new URLSearchParams({ category, city }).toString()}`,
};
