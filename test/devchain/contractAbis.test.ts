/**
 * The registries' interfaces (src/protocol/registryAbis.ts, registryAddresses.ts) against the ABIs and addresses the
 * protocol's client library exports: every function, event and error castnet declares exists there
 * with the same signature (hence selector or topic), mutability and outputs.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as core from "@farcaster/core";
import type { Abi, AbiParameter } from "viem";
import { getAddress } from "viem";
import * as abis from "../../src/protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../../src/protocol/registryAddresses.js";

const PAIRS: [string, Abi, Abi][] = [
  ["IdRegistry", abis.idRegistryAbi, core.idRegistryABI],
  ["IdGateway", abis.idGatewayAbi, core.idGatewayABI],
  ["KeyRegistry", abis.keyRegistryAbi, core.keyRegistryABI],
  ["KeyGateway", abis.keyGatewayAbi, core.keyGatewayABI],
  ["StorageRegistry", abis.storageRegistryAbi, core.storageRegistryABI],
  ["Bundler", abis.bundlerAbi, core.bundlerABI],
  ["SignedKeyRequestValidator", abis.signedKeyRequestValidatorAbi, core.signedKeyRequestValidatorABI],
];

/** A parameter's canonical type: tuples spelled out, as in a selector's signature. */
function typeOf(parameter: AbiParameter): string {
  if (!parameter.type.startsWith("tuple")) return parameter.type;
  const components = (parameter as { components: readonly AbiParameter[] }).components;
  return `(${components.map(typeOf).join(",")})${parameter.type.slice("tuple".length)}`;
}

/** An item's identity: kind, name and input types (hence its selector or topic); for an event which
 * inputs are indexed; for a function its mutability and output types. */
function identity(item: Abi[number]): string {
  if (item.type === "constructor" || item.type === "fallback" || item.type === "receive") return item.type;
  const inputs = item.inputs.map((input) =>
    item.type === "event" && (input as { indexed?: boolean }).indexed
      ? `${typeOf(input)} indexed`
      : typeOf(input),
  );
  const head = `${item.type} ${item.name}(${inputs.join(",")})`;
  return item.type === "function"
    ? `${head} ${item.stateMutability} returns (${item.outputs.map(typeOf).join(",")})`
    : head;
}

describe("the registries' interfaces", () => {
  for (const [name, ours, theirs] of PAIRS) {
    it(`${name}: every item is the library's`, () => {
      const known = new Set(theirs.map(identity));
      const missing = ours.map(identity).filter((item) => !known.has(item));
      assert.deepEqual(missing, []);
    });
  }

  it("sits at the library's addresses", () => {
    assert.deepEqual(CONTRACT_ADDRESSES, {
      idRegistry: getAddress(core.ID_REGISTRY_ADDRESS),
      idGateway: getAddress(core.ID_GATEWAY_ADDRESS),
      keyRegistry: getAddress(core.KEY_REGISTRY_ADDRESS),
      keyGateway: getAddress(core.KEY_GATEWAY_ADDRESS),
      storageRegistry: getAddress(core.STORAGE_REGISTRY_ADDRESS),
      signedKeyRequestValidator: getAddress(core.SIGNED_KEY_REQUEST_VALIDATOR_ADDRESS),
      bundler: getAddress(core.BUNDLER_ADDRESS),
    });
  });
});
