/**
 * HTML by tagged template: every interpolated value is escaped unless it is an `Html` fragment made
 * by this module (another template, or `raw` for text the code itself wrote). Casts, profiles and
 * names are attacker-controlled, so nothing reaches a page unescaped by accident.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | bigint | boolean | null | undefined | readonly Value[];

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

function render(value: Value): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value as string | number | bigint | boolean));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => (out += render(value) + strings[i + 1]!));
  return new Html(out);
}

/** Markup written by this code, never by a user: a trusted fragment that is not escaped. */
export function raw(text: string): Html {
  return new Html(text);
}

/**
 * `url` when it is an http(s) URL, for an href or src; undefined otherwise (javascript:, data:, and
 * anything unparsable never become a link).
 */
export function webUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
