/** `castnet verify address`: an Ethereum address verification, claimed by a generated or given key. */
import { type Command, Option } from "commander";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { signVerificationClaim } from "../../protocol/eip712/index.js";
import { MessageType, Protocol } from "../../protocol/generated/message.js";
import { fromHex } from "../../protocol/hex.js";
import { NEUTRAL } from "../../protocol/naming.js";
import { type CommonOptions, contextOf, report, withOptions } from "../context.js";
import { request } from "../http/request.js";
import { submit } from "../messages.js";
import { UsageError } from "../options.js";

export function registerVerify(program: Command): void {
  const verify = program.command("verify").description("verifications of addresses");
  withOptions(
    verify
      .command("address")
      .description("verify an Ethereum address for the account (a fresh key unless --key is given)")
      .addOption(new Option("--key <0x…>", "the address's private key")),
    { parts: ["hub", "chain"], account: true },
  ).action(async (options: CommonOptions & { key?: string }) => {
    if (options.key !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(options.key))
      throw new UsageError("--key must be a 32-byte private key in 0x hex");
    const context = contextOf(options);
    const actor = context.actor();
    const wallet = privateKeyToAccount((options.key as Hex | undefined) ?? generatePrivateKey());
    // The claim names a block hash: the devchain's latest block.
    const block = await request<{ hash: Hex }>("devchain", options.chainUrl!, "/v1/blocks/latest");
    const claim = {
      fid: actor.account.fid,
      address: wallet.address,
      blockHash: block.hash,
      network: context.network,
    };
    const claimSignature = await signVerificationClaim(wallet, NEUTRAL, claim);
    const message = await submit(context, actor, MessageType.VERIFICATION_ADD_ETH_ADDRESS, {
      verificationAddAddressBody: {
        address: fromHex(wallet.address),
        claimSignature: fromHex(claimSignature),
        blockHash: fromHex(block.hash),
        verificationType: 0,
        chainId: 0,
        protocol: Protocol.ETHEREUM,
      },
    });
    report(
      options,
      { fid: actor.account.fid, address: wallet.address, hash: message.hash },
      `verified ${wallet.address} for fid ${actor.account.fid} (message ${message.hash})`,
    );
  });
}
