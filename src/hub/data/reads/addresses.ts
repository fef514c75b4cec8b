/**
 * What an address is to a fid (the successor node's GetFidAddressType): its custody address, one of
 * its auth addresses, an address it verified. Any, all or none of the three.
 */
import type { Kysely } from "kysely";
import { HubError } from "../../../protocol/errors.js";
import { KEY_TYPE_AUTH_ADDRESS } from "../../../protocol/contracts.js";
import { MessageType } from "../../../protocol/generated/message.js";
import { StoreType } from "../keys.js";
import { messageBySetKey } from "../messageReads.js";
import { activeKeysOfType, custodyOf } from "../onchain.js";
import type { HubTables } from "../tables.js";

type Db = Kysely<HubTables>;

const ETHEREUM_ADDRESS_BYTES = 20;
/** A Solana address, and an auth address's key as the chain holds it. */
const KEY_BYTES = 32;

export interface AddressType {
  isCustody: boolean;
  isAuth: boolean;
  isVerified: boolean;
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(b);

/**
 * An auth key is a 12-byte index then the address, so an address matches every index it was added
 * at; the key itself matches too, as the successor compares keys.
 */
function isAuthKeyOf(key: Uint8Array, address: Uint8Array): boolean {
  if (same(key, address)) return true;
  return (
    address.length === ETHEREUM_ADDRESS_BYTES &&
    key.length === KEY_BYTES &&
    same(key.subarray(KEY_BYTES - ETHEREUM_ADDRESS_BYTES), address)
  );
}

export class AddressReads {
  constructor(private readonly db: Db) {}

  async typeOf(fid: number, address: Uint8Array): Promise<AddressType> {
    if (address.length !== ETHEREUM_ADDRESS_BYTES && address.length !== KEY_BYTES) {
      throw new HubError(
        "bad_request.invalid_param",
        "address must be 20 bytes (an Ethereum address) or 32 (a Solana address or an auth address's key)",
      );
    }
    const [custody, authKeys, verification] = await Promise.all([
      custodyOf(this.db, fid),
      activeKeysOfType(this.db, fid, KEY_TYPE_AUTH_ADDRESS),
      messageBySetKey(
        this.db,
        fid,
        StoreType.VERIFICATIONS,
        address,
        MessageType.VERIFICATION_ADD_ETH_ADDRESS,
      ),
    ]);
    return {
      isCustody: custody !== undefined && same(custody, address),
      isAuth: authKeys.some((key) => isAuthKeyOf(key, address)),
      isVerified: verification !== undefined,
    };
  }
}
