/** Pieces of the hub's JSON written as text, for writeMessage.ts and the bodies' `write`. */
import { enumName } from "./enums.js";

/** Quotes text that needs no escaping: hex, base64 and base58 never do. */
export function quoted(text: string): string {
  return '"' + text + '"';
}

export function enumJson(names: readonly (string | undefined)[], value: number): string {
  const name = enumName(names, value);
  return typeof name === "string" ? quoted(name) : String(name);
}

export function numbersJson(values: readonly number[]): string {
  return values.length === 0 ? "[]" : "[" + values.join(",") + "]";
}
