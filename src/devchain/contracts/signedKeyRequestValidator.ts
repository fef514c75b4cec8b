/**
 * SignedKeyRequestValidator (docs/reference/contracts.md §6): a key's metadata must carry a
 * SignedKeyRequest signed by the custody of the requesting fid, before its deadline. KeyRegistry
 * asks it for key types 1 and 2 with metadata type 1.
 */
import type { Hex } from "viem";
import {
  decodeSignedKeyRequestMetadata,
  encodeSignedKeyRequestMetadata,
} from "../../protocol/eip712/keyMetadata.js";
import { signedKeyRequestValidatorAbi } from "../../protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../../protocol/registryAddresses.js";
import { typedDataDigest } from "./eip712.js";
import { contractModel, emptyRevert } from "./execution.js";
import { verifyFidSignature } from "./idRegistry.js";
import { idOf } from "./reads.js";
import type { CallContext } from "./state.js";

/** `validate(userFid, key, metadata)`: false on a failed check; metadata that does not decode reverts. */
export async function validate(ctx: CallContext, key: Hex, metadata: Hex): Promise<boolean> {
  let request;
  try {
    request = decodeSignedKeyRequestMetadata(metadata);
  } catch {
    throw emptyRevert("metadata does not decode as a SignedKeyRequestMetadata");
  }
  const { requestFid, requestSigner, signature, deadline } = request;
  if ((await idOf(ctx.state, requestSigner)) !== requestFid) return false;
  if (ctx.block.timestamp > deadline) return false;
  if (key.length !== 2 + 32 * 2) return false;
  const digest = typedDataDigest(ctx, "signedKeyRequestValidator", "SignedKeyRequest", {
    requestFid,
    key,
    deadline,
  });
  return verifyFidSignature(ctx, requestSigner, requestFid, digest, signature);
}

export const signedKeyRequestValidator = contractModel({
  address: CONTRACT_ADDRESSES.signedKeyRequestValidator,
  abi: signedKeyRequestValidatorAbi,
  async run(ctx, call) {
    switch (call.functionName) {
      case "validate":
        return validate(ctx, call.args[1], call.args[2]);
      case "encodeMetadata":
        return encodeSignedKeyRequestMetadata(call.args[0]);
    }
  },
});
