/**
 * Ethereum JSON-RPC's value encodings (docs/reference/contracts.md §12): readers that turn a
 * parameter into a typed value or throw -32602 with a sentence naming the parameter, and writers
 * that turn results into the strings clients expect. Readers are as strict as geth: a quantity is a
 * `0x` string without leading zeros, never a JSON number; data is whole bytes.
 */
import { getAddress, type Address, type Hex } from "viem";
import { RpcError } from "./errors.js";

/** The largest EVM word: the bound of a quantity unless the caller sets a smaller one. */
const MAX_UINT256 = (1n << 256n) - 1n;

const QUANTITY = /^0x(?:0|[1-9a-fA-F][0-9a-fA-F]*)$/;
const DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

/** How a received value is shown in an error: short, and always as JSON. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch {
    // JSON.stringify recurses: a body under the size limit may still nest deeper than the stack.
    return "a value nested too deep to show";
  }
  return json.length <= 80 ? json : `${json.slice(0, 77)}...`;
}

function refuse(name: string, expected: string, value: unknown): never {
  throw RpcError.invalidParams(`${name} must be ${expected}, got ${shown(value)}`);
}

/**
 * The parameters of a method taking them by position: `params` as the transport hands it (an
 * array, empty when the request had none), checked against the parameters' names, of which the
 * first `required` must be present. Returns one entry per name; an optional parameter left out or
 * sent as `null` is undefined (geth reads `null` as left out too).
 */
export function positionalParams(
  params: readonly unknown[],
  names: readonly string[],
  required: number = names.length,
): unknown[] {
  if (params.length > names.length) {
    const list = names.length === 0 ? "none" : `at most ${names.length} (${names.join(", ")})`;
    throw RpcError.invalidParams(`too many parameters: this method takes ${list}, got ${params.length}`);
  }
  if (params.length < required) {
    const needed = names.slice(0, required).join(", ");
    throw RpcError.invalidParams(
      `missing parameter ${params.length} (${names[params.length]}): this method needs ${required} (${needed})`,
    );
  }
  return names.map((_, index) => (index >= required && params[index] === null ? undefined : params[index]));
}

/** A JSON object parameter (a transaction request, a log filter); its fields are read with the readers below. */
export function parseObject(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) refuse(name, "an object", value);
  return value as Record<string, unknown>;
}

export function parseBoolean(value: unknown, name: string): boolean {
  if (typeof value !== "boolean") refuse(name, "true or false", value);
  return value;
}

/** A quantity: `0x` and hex digits without leading zeros (`0x0` for zero), at most `max`. */
export function parseQuantity(value: unknown, name: string, max: bigint = MAX_UINT256): bigint {
  if (typeof value !== "string" || !QUANTITY.test(value))
    refuse(name, "a hex quantity like 0x1a (0x0 for zero, no leading zeros)", value);
  const number = BigInt(value);
  if (number > max) refuse(name, `at most 0x${max.toString(16)}`, value);
  return number;
}

/** A quantity that fits a JavaScript number: a block number, an index, a count. */
export function parseQuantityNumber(
  value: unknown,
  name: string,
  max: number = Number.MAX_SAFE_INTEGER,
): number {
  return Number(parseQuantity(value, name, BigInt(max)));
}

/** Data: `0x` and whole bytes in hex, in lowercase; `bytes` asks for an exact length. */
export function parseData(value: unknown, name: string, bytes?: number): Hex {
  if (typeof value !== "string" || !DATA.test(value))
    refuse(name, "hex data like 0x12ab (whole bytes)", value);
  if (bytes !== undefined && value.length !== 2 + 2 * bytes)
    refuse(name, `${bytes} bytes of hex data`, value);
  return value.toLowerCase() as Hex;
}

/** A 20-byte address in any case (nodes do not check the EIP-55 checksum), returned checksummed. */
export function parseAddress(value: unknown, name: string): Address {
  if (typeof value !== "string" || !ADDRESS.test(value)) refuse(name, "a 20-byte hex address", value);
  return getAddress(value);
}

/** A 32-byte hash (a block or transaction hash, a topic), in lowercase. */
export function parseHash(value: unknown, name: string): Hex {
  if (typeof value !== "string" || !HASH.test(value)) refuse(name, "a 32-byte hex hash", value);
  return value.toLowerCase() as Hex;
}

const BLOCK_TAGS = ["latest", "earliest", "pending", "safe", "finalized"] as const;
export type BlockTagName = (typeof BLOCK_TAGS)[number];

/** Which block a read is about: a tag, a number, or (EIP-1898) a hash. */
export type BlockSelector =
  | { kind: "tag"; tag: BlockTagName }
  | { kind: "number"; number: number }
  | { kind: "hash"; hash: Hex; requireCanonical: boolean };

const TAG_OR_NUMBER = `a block tag (${BLOCK_TAGS.join(", ")}) or a hex block number`;

function tagOrNumber(value: unknown, name: string): BlockSelector {
  if (typeof value === "string" && (BLOCK_TAGS as readonly string[]).includes(value))
    return { kind: "tag", tag: value as BlockTagName };
  if (typeof value !== "string" || !QUANTITY.test(value)) refuse(name, TAG_OR_NUMBER, value);
  return { kind: "number", number: parseQuantityNumber(value, name) };
}

/**
 * A block parameter: a tag, a quantity, or EIP-1898's `{blockNumber}` / `{blockHash,
 * requireCanonical?}` object. Optional block parameters are the caller's to default.
 */
export function parseBlockSelector(value: unknown, name: string): BlockSelector {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return tagOrNumber(value, name);
  const fields = value as Record<string, unknown>;
  const hasNumber = fields.blockNumber !== undefined;
  const hasHash = fields.blockHash !== undefined;
  if (hasNumber === hasHash)
    refuse(name, `${TAG_OR_NUMBER}, or an object with either blockNumber or blockHash`, value);
  if (hasNumber) {
    if (fields.requireCanonical !== undefined)
      refuse(`${name}.requireCanonical`, "left out with blockNumber (it goes with blockHash)", value);
    return tagOrNumber(fields.blockNumber, `${name}.blockNumber`);
  }
  const requireCanonical =
    fields.requireCanonical === undefined
      ? false
      : parseBoolean(fields.requireCanonical, `${name}.requireCanonical`);
  return { kind: "hash", hash: parseHash(fields.blockHash, `${name}.blockHash`), requireCanonical };
}

export { encodeQuantity } from "../quantity.js";

/** Bytes as `0x` and two lowercase hex digits a byte (`0x` for none). */
export function encodeData(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;
}
