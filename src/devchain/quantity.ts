import type { Hex } from "viem";

/**
 * A quantity as Ethereum clients read one: `0x` and hex digits without leading zeros, `0x0` for
 * zero. What the JSON-RPC answers and the logs stored for it (ledger/logJson.ts) both write.
 */
export function encodeQuantity(value: bigint | number): Hex {
  if (typeof value === "number" && !Number.isSafeInteger(value))
    throw new RangeError(`quantity ${value} is not a safe integer`);
  if (value < 0) throw new RangeError(`quantity ${value} is negative`);
  return `0x${value.toString(16)}`;
}
