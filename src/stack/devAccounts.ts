/**
 * The development accounts' ether: at start, every custody address the data directory's keystore
 * holds is given `--dev-balance` when it has less, so that wallets and scripts using those keys can
 * pay the registries' prices and gas on the devchain (docs/devchain.md, "Funded accounts").
 */
import type { DevchainService } from "../devchain/index.js";
import { formatEther } from "viem";
import type { Logger } from "../http/index.js";
import { Keystore } from "../wallet/keystore.js";
import type { StackConfig } from "./options.js";

export async function fundKeystoreAccounts(
  chain: DevchainService,
  config: Pick<StackConfig, "dataDir" | "devBalance">,
  logger: Logger,
): Promise<void> {
  if (config.devBalance === 0n) return;
  let keystore: Keystore;
  try {
    keystore = new Keystore(config.dataDir);
  } catch (error) {
    // The start needs no keystore: one it cannot read funds nothing, and the commands that use it say why.
    logger.warn({ reason: (error as Error).message }, "devchain: keystore accounts not funded");
    return;
  }
  const addresses = keystore.names().map((name) => keystore.get(name).custodyAddress);
  const funded = await chain.fund(addresses, config.devBalance);
  if (funded.length > 0)
    logger.info(
      { accounts: funded.length, ether: formatEther(config.devBalance) },
      "devchain: keystore accounts funded",
    );
}
