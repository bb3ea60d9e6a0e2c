/** Lower-case, accents folded, hyphens/underscores as spaces, single spaces: "São-Paulo " -> "sao paulo". */
export function normalizeTerm(input: string): string {
  return input
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[-_]+/g, " ")
    .replace(/[^\p{L}\p{N}&' ]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The term and its plausible singulars, last word only: "dental clinics" -> "dental clinic". */
export function singularForms(term: string): string[] {
  const forms = new Set([term]);
  const words = term.split(" ");
  const last = words.pop() ?? "";
  const head = words.length > 0 ? `${words.join(" ")} ` : "";
  if (last.endsWith("ies") && last.length > 4) forms.add(`${head}${last.slice(0, -3)}y`);
  if (/(s|x|z|ch|sh)es$/.test(last)) forms.add(`${head}${last.slice(0, -2)}`);
  if (last.endsWith("s") && !last.endsWith("ss") && last.length > 3) forms.add(`${head}${last.slice(0, -1)}`);
  return [...forms];
}
