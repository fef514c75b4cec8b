import { type Address, type Hex, type LocalAccount, type TypedDataDefinition, hashTypedData } from "viem";
import { ETH_MAINNET_CHAIN_ID, USERNAME_PROOF_VERIFIER_ADDRESS } from "../contracts.js";
import { type SignatureInput, recoverDigestSigner } from "./verify.js";

/**
 * castnet's own name for the admin domain: no brand word, since no other ecosystem signs it, and a
 * name of its own, so that no username-proof signature (user, admin or server) verifies under it.
 */
export const ADMIN_TRANSFER_DOMAIN_NAME = "castnet name registry admin";

export const ADMIN_TRANSFER_TYPES = {
  AdminTransfer: [
    { name: "name", type: "string" },
    { name: "from", type: "uint256" },
    { name: "to", type: "uint256" },
    { name: "fid", type: "uint256" },
    { name: "owner", type: "address" },
    { name: "timestamp", type: "uint256" },
  ],
} as const;

/**
 * A registry admin's authorisation of one POST /transfers request, field for field: unlike the
 * username-proof claim (name, timestamp, owner), it names the fids the name moves between and the
 * admin fid that asks, so it authorises that move and no other.
 */
export interface AdminTransfer {
  name: string;
  from: bigint | number;
  to: bigint | number;
  /** The admin fid making the request. */
  fid: bigint | number;
  owner: Address;
  /** Unix seconds. */
  timestamp: bigint | number;
}

export interface AdminTransferOptions {
  /** The registry's username-proof verifying contract (the admin domain shares it, and chain 1). */
  verifyingContract?: Address;
}

export function adminTransferTypedData(
  transfer: AdminTransfer,
  options: AdminTransferOptions = {},
): TypedDataDefinition<typeof ADMIN_TRANSFER_TYPES, "AdminTransfer"> {
  return {
    domain: {
      name: ADMIN_TRANSFER_DOMAIN_NAME,
      version: "1",
      chainId: ETH_MAINNET_CHAIN_ID,
      verifyingContract: options.verifyingContract ?? USERNAME_PROOF_VERIFIER_ADDRESS,
    },
    types: ADMIN_TRANSFER_TYPES,
    primaryType: "AdminTransfer",
    message: {
      name: transfer.name,
      from: BigInt(transfer.from),
      to: BigInt(transfer.to),
      fid: BigInt(transfer.fid),
      owner: transfer.owner,
      timestamp: BigInt(transfer.timestamp),
    },
  };
}

/** The `signature` of an admin's POST /transfers body. */
export function signAdminTransfer(
  account: LocalAccount,
  transfer: AdminTransfer,
  options: AdminTransferOptions = {},
): Promise<Hex> {
  return account.signTypedData(adminTransferTypedData(transfer, options));
}

export async function verifyAdminTransfer(
  transfer: AdminTransfer,
  signature: SignatureInput,
  expectedSigner: Address,
  options: AdminTransferOptions = {},
): Promise<boolean> {
  const signer = await recoverDigestSigner(
    hashTypedData(adminTransferTypedData(transfer, options)),
    signature,
  );
  return signer !== undefined && signer.toLowerCase() === expectedSigner.toLowerCase();
}
