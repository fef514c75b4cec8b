/**
 * What the pages read: the parts' public HTTP APIs, at the URLs the stack was configured with (never
 * derived from a request's Host, which the caller controls). A missing thing (404) is `undefined`;
 * a part that does not answer is a PartUnavailable, which the page shows as such.
 */

export type SourcePart = "api" | "hub" | "registry" | "chain";

/** Base URLs of the parts, as the operator configured or the stack listened on them. */
export type PartUrls = Partial<Record<SourcePart, string>>;

const TIMEOUT_MS = 5_000;

export class PartUnavailable extends Error {
  override name = "PartUnavailable";
  constructor(readonly part: SourcePart) {
    super(`the ${part === "api" ? "client API" : part} did not answer`);
  }
}

/** Input of the page's own that the part refused: the page answers 400 with this sentence. */
export class PageRefusal extends Error {
  override name = "PageRefusal";
}

export interface Sources {
  urls: () => PartUrls;
  /**
   * GET `path` of `part` as JSON; undefined on a 404. Any other refusal is undefined when `refused`
   * is true (the page shows what it has), or a PageRefusal with `refused` as its sentence.
   */
  get<T>(part: SourcePart, path: string, refused?: true | string): Promise<T | undefined>;
}

export function partSources(urls: () => PartUrls): Sources {
  return {
    urls,
    async get<T>(part: SourcePart, path: string, refused?: true | string): Promise<T | undefined> {
      const base = urls()[part];
      if (base === undefined) throw new PartUnavailable(part);
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      } catch {
        throw new PartUnavailable(part);
      }
      if (response.status === 404 || (refused !== undefined && response.status < 500 && !response.ok)) {
        await response.body?.cancel();
        if (response.status === 404 || refused === true) return undefined;
        throw new PageRefusal(refused);
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new PartUnavailable(part);
      }
      return (await response.json()) as T;
    },
  };
}

/** `path?query` with the defined values of `query` encoded. */
export function withQuery(
  path: string,
  query: Record<string, string | number | boolean | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text === "" ? path : `${path}?${text}`;
}
