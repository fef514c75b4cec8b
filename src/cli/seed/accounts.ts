/**
 * The demo's accounts: a fid on the devchain with storage, a signer and the stack's dev balance
 * each, kept in the keystore.
 * Keys are derived from the account's name, so that seeding again finds the same fids on the chain
 * (even with a fresh keystore) instead of registering new ones. They are public: demo keys only.
 */
import { type Hex, keccak256, numberToHex, stringToBytes } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { jsonRpcCall } from "../../interfaces/jsonRpcHttp.js";
import { ed25519PublicKey } from "../../protocol/ed25519.js";
import { fromHex, toHex } from "../../protocol/hex.js";
import { NEUTRAL } from "../../protocol/naming.js";
import { addSigner } from "../../stack/account.js";
import type { Context } from "../context.js";
import { CliError, request } from "../http/request.js";
import type { StoredAccount } from "../../wallet/keystore.js";
import type { Actor } from "../writes.js";
import type { Tally } from "./tally.js";

/** A 32-byte key for `purpose` of the demo account `name`. */
export function demoKey(purpose: "custody" | "signer" | "address", name: string): Hex {
  return keccak256(stringToBytes(`castnet demo ${purpose} key of ${name}`));
}

const WAIT_MS = 60_000;

/** `probe`'s first answer, asked every 100 ms for up to a minute. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new CliError(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Makes sure each named account exists on the devchain (registered in the order given, so a fresh
 * stack numbers them alike every time), has `units` of storage and its derived signer, is in the
 * keystore, and that the hub has seen its signer and storage. Each account it registers is given
 * the stack's dev balance, as `account create` gives one: the start funded the keystore before the
 * seed made them. Returns them in the order given.
 */
export async function ensureAccounts(
  context: Context,
  names: readonly string[],
  units: number,
  tally: Tally,
): Promise<Actor[]> {
  const keystore = context.keystore();
  const custodies = names.map((name) => privateKeyToAccount(demoKey("custody", name)));
  for (const [index, name] of names.entries()) {
    const held = keystore.has(name) ? keystore.get(name) : undefined;
    if (held && held.custodyAddress.toLowerCase() !== custodies[index]!.address.toLowerCase())
      throw new CliError(
        `the keystore ${keystore.path} has an account "${name}" that is not the demo's: rename it or seed with another --data-dir`,
      );
  }

  // Submitted one after another without waiting, so they are mined in this order, in one block.
  const fidsBefore = await Promise.all(custodies.map((custody) => context.chain.fidOf(custody.address)));
  for (const [index, custody] of custodies.entries()) {
    if (fidsBefore[index] !== undefined) continue;
    await request("devchain", context.chainBase, "/v1/fids?wait=false", {
      body: { custody: custody.address, recovery: custody.address },
      headers: context.operatorHeaders,
    });
  }
  // Mined with the storage rents below, or before them; none for an account the chain had already.
  if (context.devBalance > 0n)
    for (const [index, custody] of custodies.entries()) {
      if (fidsBefore[index] !== undefined) continue;
      await jsonRpcCall(
        context.chainBase,
        "castnet_setBalance",
        [custody.address, numberToHex(context.devBalance)],
        { adminToken: context.options.adminToken },
      );
    }
  const fids = await Promise.all(
    custodies.map((custody, index) =>
      until(`the devchain to register ${names[index]}`, () => context.chain.fidOf(custody.address)),
    ),
  );
  tally.count("accounts", fidsBefore.filter((fid) => fid === undefined).length, names.length);

  const actors = await Promise.all(
    names.map(async (name, index): Promise<Actor> => {
      const fid = fids[index]!;
      const signerSeed = fromHex(demoKey("signer", name));
      const signerPublicKey = toHex(ed25519PublicKey(signerSeed));
      const onChain = (await context.chain.getAccount(fid))!;
      if (onChain.storageUnits < units) await context.chain.rentStorage(fid, units - onChain.storageUnits);
      if (!onChain.signers.some((s) => s.key.toLowerCase() === signerPublicKey))
        await addSigner(context.chain, custodies[index]!, fid, NEUTRAL, {
          privateKey: signerSeed,
          publicKey: fromHex(signerPublicKey),
        });
      const account: StoredAccount = {
        fid,
        custodyAddress: custodies[index]!.address,
        custodyPrivateKey: demoKey("custody", name),
        signerPublicKey,
        signerPrivateKey: demoKey("signer", name),
      };
      return { name, account };
    }),
  );
  for (const { name, account } of actors) {
    if (!keystore.has(name)) keystore.add(name, account);
    else if (keystore.get(name).signerPrivateKey !== account.signerPrivateKey) keystore.update(name, account);
  }

  // The hub follows the chain block by block; messages are refused until it has the signer and storage.
  await Promise.all(
    actors.map(({ name, account }) =>
      until(`the hub to see the signer and storage of ${name}`, async () => {
        const signer = await request<unknown>(
          "hub",
          context.hub.base,
          `/v1/onChainSignersByFid?fid=${account.fid}&signer=${account.signerPublicKey}`,
          { missingIsUndefined: true },
        );
        const storage = await request<{ units: number }>(
          "hub",
          context.hub.base,
          `/v1/storageLimitsByFid?fid=${account.fid}`,
        );
        return signer !== undefined && storage.units >= units ? true : undefined;
      }),
    ),
  );
  return actors;
}
