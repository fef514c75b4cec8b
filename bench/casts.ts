/** Signed casts and a silent name feed, for the suites that run a hub. */
import { createPrivateKey, sign } from "node:crypto";
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { ed25519PublicKey } from "../src/protocol/ed25519.js";
import { MessageData, MessageType, SocialNetwork } from "../src/protocol/generated/message.js";
import { blake3_20 } from "../src/protocol/hash.js";
import { encodeMessage } from "../src/protocol/message.js";
import type { Devchain } from "../src/devchain/index.js";
import type { TransferFeed } from "../src/interfaces/transferFeed.js";

/** The seeded store's fids (bench/hubSeed.ts) start here, far above those the devchain registers. */
export const FIRST_SEEDED_FID = 1_000_000;

/** A feed with no transfers: names play no part here. */
export const noNames: TransferFeed = {
  signer: async () => privateKeyToAccount(generatePrivateKey()).address,
  transfersAfter: async () => [],
  transfersByName: async () => [],
  onTransfer: () => () => undefined,
};

export function castData(fid: number, timestamp: number, text: string): MessageData {
  return {
    type: MessageType.CAST_ADD,
    fid,
    timestamp,
    network: SocialNetwork.DEVNET,
    castAddBody: { embedsDeprecated: [], mentions: [], text, mentionsPositions: [], embeds: [], type: 0 },
  };
}

/**
 * Signs as a client library does (BLAKE3-20 of the data bytes, Ed25519 over the hash), with the
 * key parsed once: parsing a raw Ed25519 key costs far more than the signature.
 */
export function signer(privateKey: Uint8Array): (data: MessageData) => Uint8Array {
  const key = createPrivateKey({
    key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), privateKey]),
    format: "der",
    type: "pkcs8",
  });
  const publicKey = ed25519PublicKey(privateKey);
  return (data) => {
    const dataBytes = MessageData.encode(data).finish();
    const hash = blake3_20(dataBytes);
    const signature = new Uint8Array(sign(null, hash, key));
    return encodeMessage({
      data,
      hash,
      hashScheme: 1,
      signature,
      signatureScheme: 1,
      signer: publicKey,
      dataBytes,
    });
  };
}

/**
 * Registers one fid per key on the devchain, with `units` of storage and the key added; mines them.
 * The custody addresses are `custodies`' when given (one per key), fresh ones otherwise.
 */
export async function registerFids(
  chain: Devchain["chain"],
  keys: Uint8Array[],
  units: number,
  custodies?: readonly Address[],
): Promise<number[]> {
  const fids: number[] = [];
  for (const [i, key] of keys.entries()) {
    const { fid } = await chain.submitRegister({
      custody: custodies?.[i] ?? privateKeyToAccount(generatePrivateKey()).address,
    });
    await chain.submitStorageRent(fid, units);
    await chain.submitKeyAdd({ fid, key: `0x${Buffer.from(ed25519PublicKey(key)).toString("hex")}` });
    fids.push(fid);
  }
  await chain.mine();
  return fids;
}
