import type { Address, Hex } from "viem";
import { KEY_TYPE_ED25519, METADATA_TYPE_SIGNED_KEY_REQUEST } from "../../protocol/contracts.js";
import { KEY_GATEWAY_ADD_TYPES, keyGatewayAddTypedData } from "../../protocol/eip712/index.js";
import type { NamingProfile } from "../../protocol/naming.js";
import { metadataOf } from "./keyAdds.js";
import type { KeyRequestRow } from "./store.js";

/** The key gateway `Add` a wallet signs to approve, as JSON (EIP-712 `eth_signTypedData_v4` form). */
export interface ApprovalTypedData {
  domain: { name: string; version: string; chainId: number; verifyingContract: Address };
  types: Record<string, { name: string; type: string }[]>;
  primaryType: "Add";
  message: {
    owner: Address;
    keyType: number;
    key: Hex;
    metadataType: number;
    metadata: Hex;
    nonce: number;
    deadline: number;
  };
}

const EIP712_DOMAIN_TYPE = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
];

/** The key gateway `Add` that approves `row` for the fid whose custody address is `owner`. */
export function approvalAdd(row: KeyRequestRow, owner: Address, nonce: number, deadline: number) {
  return {
    owner,
    keyType: KEY_TYPE_ED25519,
    key: row.key as Hex,
    metadataType: METADATA_TYPE_SIGNED_KEY_REQUEST,
    metadata: metadataOf(row),
    nonce,
    deadline,
  };
}

export function approvalTypedData(
  naming: NamingProfile,
  add: ReturnType<typeof approvalAdd>,
  verifyingContract: Address | undefined,
): ApprovalTypedData {
  const typed = keyGatewayAddTypedData(naming, add, { verifyingContract });
  return {
    domain: {
      name: typed.domain!.name!,
      version: typed.domain!.version!,
      chainId: Number(typed.domain!.chainId),
      verifyingContract: typed.domain!.verifyingContract!,
    },
    types: {
      EIP712Domain: EIP712_DOMAIN_TYPE,
      Add: KEY_GATEWAY_ADD_TYPES.Add.map((field) => ({ ...field })),
    },
    primaryType: "Add",
    message: { ...typed.message, nonce: add.nonce, deadline: add.deadline },
  };
}
