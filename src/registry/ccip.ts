import {
  type Hex,
  decodeFunctionData,
  encodeFunctionResult,
  hexToBytes,
  parseAbi,
  toFunctionSelector,
  zeroAddress,
} from "viem";
import { RegistryError } from "./errors.js";
import type { ResolvedName } from "./service.js";

/**
 * The CCIP-read (EIP-3668) gateway's calls: `resolve(bytes name, bytes data)` for `<name>.<parent>`,
 * answered with the name's holder and a fresh server signature, and the `multicall(bytes[])` its
 * server library adds, which answers each inner call in turn.
 */
const GATEWAY_ABI = parseAbi([
  "function resolve(bytes name, bytes data) view returns (string name, uint256 timestamp, address owner, bytes sig)",
  "function multicall(bytes[] data) view returns (bytes[] results)",
]);

const RESOLVE = toFunctionSelector(GATEWAY_ABI[0]);
const MULTICALL = toFunctionSelector(GATEWAY_ABI[1]);

const INVALID = "Invalid request format";

/** The first label of a DNS wire-format name ("" for the root); the parent domain does not matter. */
function firstLabel(name: Hex): string {
  const bytes = hexToBytes(name);
  if (bytes.length === 0) return "";
  const length = bytes[0]!;
  if (1 + length > bytes.length) throw new RegistryError("bad_request", INVALID);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(1, 1 + length));
  } catch {
    throw new RegistryError("bad_request", INVALID);
  }
}

function decode(callData: Hex) {
  try {
    return decodeFunctionData({ abi: GATEWAY_ABI, data: callData });
  } catch {
    throw new RegistryError("bad_request", INVALID);
  }
}

/** The ABI-encoded answer to one gateway call; `resolve` looks a name up in the registry. */
export async function answerGatewayCall(
  callData: Hex,
  resolve: (name: string) => Promise<ResolvedName | undefined>,
): Promise<Hex> {
  if (callData.length < 10) throw new RegistryError("bad_request", INVALID);
  const selector = callData.slice(0, 10).toLowerCase();
  if (selector !== RESOLVE && selector !== MULTICALL) {
    throw new RegistryError("not_found", `No implementation for function with selector ${selector}`);
  }
  const call = decode(callData);
  if (call.functionName === "multicall") {
    const results: Hex[] = [];
    for (const inner of call.args[0]) results.push(await answerGatewayCall(inner, resolve));
    return encodeFunctionResult({ abi: GATEWAY_ABI, functionName: "multicall", result: results });
  }
  const found = await resolve(firstLabel(call.args[0]));
  return encodeFunctionResult({
    abi: GATEWAY_ABI,
    functionName: "resolve",
    result: found
      ? [found.username, BigInt(found.timestamp), found.owner, found.signature]
      : ["", 0n, zeroAddress, "0x"],
  });
}
