/** Reads of the state at a block, and the calls run on it: eth_call, eth_estimateGas and the accounts' figures. */
import { type Address, decodeErrorResult, type Hex, zeroAddress } from "viem";
import { isContractAddress } from "../../contracts/call.js";
import { stateKey } from "../../contracts/state.js";
import type { CallRequest, Ledger } from "../../ledger/index.js";
import { RpcError } from "../errors.js";
import {
  encodeQuantity,
  parseAddress,
  parseData,
  parseObject,
  parseQuantity,
  positionalParams,
} from "../params.js";
import type { RpcMethods } from "../server.js";
import { stateBlock } from "./chain.js";

/** Stands in for the registries' bytecode: eth_getCode is non-empty at each contract, as clients check. */
const CONTRACT_CODE: Hex = "0x60006000fd";

/** A call object (eth_call, eth_estimateGas): `to` required, the rest defaulted as nodes do. */
function callRequest(value: unknown): CallRequest {
  const fields = parseObject(value, "transaction");
  if (fields.to === undefined || fields.to === null)
    throw RpcError.invalidParams("transaction.to is required: the devchain does not create contracts");
  if (fields.data !== undefined && fields.input !== undefined && fields.data !== fields.input)
    throw RpcError.invalidParams("transaction.data and transaction.input differ: send one of them");
  const input = fields.input ?? fields.data;
  return {
    from:
      fields.from === undefined || fields.from === null
        ? zeroAddress
        : parseAddress(fields.from, "transaction.from"),
    to: parseAddress(fields.to, "transaction.to"),
    value:
      fields.value === undefined || fields.value === null
        ? 0n
        : parseQuantity(fields.value, "transaction.value"),
    input: input === undefined || input === null ? "0x" : parseData(input, "transaction.input"),
  };
}

/** A revert as nodes answer it: code 3, the revert data, and the reason when it is an Error(string). */
function reverted(output: Hex): RpcError {
  let reason: string | undefined;
  try {
    const decoded = decodeErrorResult({ data: output, abi: [] });
    if (decoded.errorName === "Error") reason = String(decoded.args?.[0]);
  } catch {
    // A custom error: the data names it for clients that know the ABI.
  }
  return RpcError.executionReverted(output, reason);
}

async function enoughFunds(ledger: Ledger, request: CallRequest, blockNumber: number): Promise<void> {
  if (request.value === 0n) return;
  const balance = await ledger.balanceOf(request.from, blockNumber);
  if (balance < request.value)
    throw RpcError.serverError(
      `insufficient funds for transfer: address ${request.from} have ${balance} want ${request.value}`,
    );
}

export function stateMethods(ledger: Ledger): RpcMethods {
  /** eth_call's and eth_estimateGas's parameters run on the block asked; a revert is their answer. */
  async function succeedingCall(params: unknown[]) {
    const [transaction, block] = positionalParams(params, ["transaction", "block"], 1);
    const request = callRequest(transaction);
    const at = await stateBlock(ledger, block, "block");
    await enoughFunds(ledger, request, at.number);
    const result = await ledger.call(request, at);
    if (result.status === 0) throw reverted(result.output);
    return { request, output: result.output };
  }

  return {
    async eth_call(params) {
      const { output } = await succeedingCall(params);
      return output;
    },
    async eth_estimateGas(params) {
      return encodeQuantity(ledger.gasOf((await succeedingCall(params)).request));
    },
    async eth_getCode(params) {
      const [address, block] = positionalParams(params, ["address", "block"], 1);
      const target: Address = parseAddress(address, "address");
      await stateBlock(ledger, block, "block");
      return isContractAddress(target) ? CONTRACT_CODE : "0x";
    },
    async eth_getBalance(params) {
      const [address, block] = positionalParams(params, ["address", "block"], 1);
      const at = await stateBlock(ledger, block, "block");
      return encodeQuantity(await ledger.balanceOf(parseAddress(address, "address"), at.number));
    },
    async eth_getTransactionCount(params) {
      const [address, block] = positionalParams(params, ["address", "block"], 1);
      const target = parseAddress(address, "address");
      if (block === "pending") return encodeQuantity(await ledger.nonceOf(target, true));
      const at = await stateBlock(ledger, block, "block");
      const count = await ledger.stateAt(at.number).get(stateKey.transactionCount(target));
      return encodeQuantity(BigInt(count ?? "0"));
    },
  };
}
