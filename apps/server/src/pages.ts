import type { Express, Request, Response } from "express";
import { TRPCError } from "@trpc/server";
import { createCaller, toPublicError, type Context } from "@directory/api";
import { escapeHtml, htmlPage } from "./html";

function renderError(res: Response, error: unknown): void {
  if (!(error instanceof TRPCError)) throw error;
  const { status, body, retryAfterSeconds } = toPublicError(error);
  if (retryAfterSeconds) res.setHeader("Retry-After", String(retryAfterSeconds));
  res.status(status).type("html").send(htmlPage("Not available", `<h1>${status}</h1><p>${escapeHtml(body.error)}</p>`));
}

/** Human-readable pages; like every door they call procedures, never the database. */
export function mountPages(app: Express, contextFor: (req: Request, res: Response) => Context): void {

  app.get("/business/:slug", async (req, res, next) => {
    try {
      const caller = createCaller(contextFor(req, res));
      const slug = req.params.slug;
      const [profile, agent] = await Promise.all([
        caller.entities.getEntityProfile({ slug }),
        caller.entities.getAgentProfile({ slug }),
      ]);
      const { identity, contact, aiSignals } = profile;
      const claimsRows = profile.claims
        .map((c) => `<tr><td>${escapeHtml(c.property)}</td><td>${escapeHtml(c.source)}</td><td>${escapeHtml(c.verification)}</td><td>${c.confidence}</td><td>${escapeHtml(c.observedAt)}</td></tr>`)
        .join("");
      const hours = contact.openingHours.map((h) => `<li>${escapeHtml(h.days.join(", "))}: ${escapeHtml(h.opens)}-${escapeHtml(h.closes)}</li>`).join("");
      const questions = agent.intents.map((i) => `<dt>${escapeHtml(i.query)}</dt><dd>${escapeHtml(i.answer)}</dd>`).join("");
      const body = `<h1>${escapeHtml(identity.name)}</h1>
<p>${escapeHtml(identity.category)} in ${escapeHtml(identity.city)}, ${escapeHtml(identity.state)} · ${identity.verified ? "Owner-verified" : "Unclaimed, registry-sourced"}</p>
<p>${escapeHtml(aiSignals.description)}</p>
<h2 id="contact">Contact</h2><ul><li>Phone: ${escapeHtml(contact.phone)}</li><li>Email: ${escapeHtml(contact.email)}</li><li>Website: ${escapeHtml(contact.website)}</li></ul>
<h2 id="location">Location</h2><p>${escapeHtml(contact.address)}</p><p><small>${contact.latitude ?? ""}, ${contact.longitude ?? ""}</small></p>
<h2 id="hours">Opening hours</h2><ul>${hours || "<li>Not known</li>"}</ul>
<h2>Services</h2><p>${escapeHtml(profile.services.join(", "))}</p>
<h2 id="questions">Questions and answers</h2><dl>${questions}</dl>
<h2 id="claims">Where these facts come from</h2><table><tr><th>Property</th><th>Source</th><th>Verification</th><th>Confidence</th><th>Observed</th></tr>${claimsRows}</table>
<p><small>Completeness ${aiSignals.directoryCompletenessScore}/100: ${escapeHtml(aiSignals.directoryCompletenessScoreLabel)}</small></p>
<p><a href="${escapeHtml(profile.links.agentProfileUrl)}">agent.json</a> · <a href="${escapeHtml(profile.links.canonicalUrl)}">canonical record</a></p>`;
      res.type("html").send(htmlPage(`${identity.name} · ${identity.city}`, body, profile.structuredData));
    } catch (error) {
      if (error instanceof TRPCError) return renderError(res, error);
      next(error);
    }
  });

  app.get("/browse", async (req, res, next) => {
    try {
      const category = typeof req.query.category === "string" ? req.query.category : "";
      const city = typeof req.query.city === "string" ? req.query.city : "";
      const result = await createCaller(contextFor(req, res)).search.lookupBusinesses({ category, city, limit: 50 });
      const items = result.businesses
        .map((b) => `<li><a href="${escapeHtml(b.profileUrl)}">${escapeHtml(b.name)}</a> <small>${escapeHtml(b.planTier)} · ${escapeHtml(b.address)}</small></li>`)
        .join("");
      const body = `<h1>${escapeHtml(result.category.name)} in ${escapeHtml(result.city.name)}</h1><p><small>${escapeHtml(result.rankingDisclosure)}</small></p><ol>${items}</ol>`;
      res.type("html").send(htmlPage(`${result.category.name} in ${result.city.name}`, body));
    } catch (error) {
      if (error instanceof TRPCError) return renderError(res, error);
      next(error);
    }
  });
}
