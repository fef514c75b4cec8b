/** Schemes of the links the client API stores for clients to open: images, pages, action endpoints. */
export const WEB_SCHEMES = ["https:", "http:"];

/** Whether `value` parses as a URL with one of `schemes` (each with its colon, as URL.protocol has it). */
export function isUrl(value: string, schemes: readonly string[]): boolean {
  try {
    return schemes.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
