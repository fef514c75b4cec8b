/**
 * The devchain's contracts by address (docs/reference/contracts.md §1): a transaction or an
 * `eth_call` to one of them runs its model; any revert undoes the whole call (the ledger drops the
 * call's overlay).
 */
import type { Address, Hex } from "viem";
import { bundler } from "./bundler.js";
import type { ContractModel } from "./execution.js";
import { idGateway } from "./idGateway.js";
import { idRegistry } from "./idRegistry.js";
import { keyGateway } from "./keyGateway.js";
import { keyRegistry } from "./keyRegistry.js";
import { signedKeyRequestValidator } from "./signedKeyRequestValidator.js";
import type { CallContext } from "./state.js";
import { storageRegistry } from "./storageRegistry.js";

const CONTRACTS = new Map<string, ContractModel>(
  [idRegistry, idGateway, keyRegistry, keyGateway, storageRegistry, bundler, signedKeyRequestValidator].map(
    (contract) => [contract.address.toLowerCase(), contract],
  ),
);

export function isContractAddress(address: Address): boolean {
  return CONTRACTS.has(address.toLowerCase());
}

/**
 * Runs calldata `input` at the contract at `to` (`ctx.sender` calling with `ctx.value`, which the
 * ledger has already moved to `to`). Returns the ABI-encoded result; throws `Revert`. Views write
 * nothing; writes go to `ctx.state` and their logs to `ctx.logs`.
 */
export async function callContract(ctx: CallContext, to: Address, input: Hex): Promise<Hex> {
  const contract = CONTRACTS.get(to.toLowerCase());
  if (!contract) throw new Error(`${to} is not a devchain contract`);
  return contract.call(ctx, input);
}
