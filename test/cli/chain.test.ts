/**
 * The devchain's development accounts and `castnet chain`, as a user meets them: `castnet start`
 * funds every account its keystore holds, `account create` funds the new one, viem spends from it,
 * and the chain commands read balances, blocks and transactions and fund and mine, each run as the
 * built command from a folder of its own with a fresh shell's environment.
 */
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Hex, createPublicClient, createWalletClient, formatEther, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { optimism } from "viem/chains";
import { Keystore } from "../../src/wallet/keystore.js";
import { killCastnetProcesses, type RunningCastnet, startCastnetProcess } from "../support/castnetProcess.js";
import { scratchDir } from "../support/cli.js";
import { FREE_PORTS } from "../support/ports.js";
import { castnet, errorLines, json, type Run } from "./run.js";

const SEVEN_ETH = 7n * 10n ** 18n;

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const stdoutLines = (run: Run) => {
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trimEnd().split("\n");
};

after(killCastnetProcesses);

describe("funded development accounts and castnet chain", () => {
  const dataDir = join(scratchDir(), "stack");
  // An account the keystore held before this start, its address never funded.
  const kept = privateKeyToAccount(generatePrivateKey());
  const env = { CASTNET_DATA_DIR: dataDir };
  let stack: RunningCastnet;
  let rpcUrl: string;
  const publicClient = (url: string) => createPublicClient({ chain: optimism, transport: http(url) });
  let chain: ReturnType<typeof publicClient>;

  before(async () => {
    new Keystore(dataDir).add("kept", { fid: 1, custodyAddress: kept.address, custodyPrivateKey: "0x01" });
    stack = await startCastnetProcess(
      [...FREE_PORTS, "--data-dir", dataDir, "--block-time", "0", "--dev-balance", "7"],
      { env: { CASTNET_LOG_LEVEL: "warn" } },
    );
    rpcUrl = stack.urls.devchain!;
    chain = publicClient(rpcUrl);
  });
  after(() => stack?.stop());

  it("gives every account of the keystore the --dev-balance at start, as an operator transaction", async () => {
    assert.equal(await chain.getBalance({ address: kept.address }), SEVEN_ETH);
    // Block 1 holds the funding: a transaction of the chain, as every operator write is.
    const block = await chain.getBlock({ blockNumber: 1n });
    assert.equal(block.transactions.length, 1);
    const receipt = await chain.getTransactionReceipt({ hash: block.transactions[0]! });
    assert.equal(receipt.status, "success");
  });

  it("funds a new account with the stack's --dev-balance, and viem spends from it", async () => {
    const carol = json<{ custodyAddress: Hex; balance: string }>(
      await castnet(env, "account", "create", "carol", "--json"),
    );
    assert.equal(carol.balance, SEVEN_ETH.toString());
    assert.equal(await chain.getBalance({ address: carol.custodyAddress }), SEVEN_ETH);
    const block = await chain.getBlockNumber();
    assert.deepEqual(stdoutLines(await castnet(env, "chain", "balance", "carol")), [
      `carol (${carol.custodyAddress}) has 7 ETH at block ${block}`,
    ]);

    const key = new Keystore(dataDir).get("carol").custodyPrivateKey;
    const wallet = createWalletClient({
      account: privateKeyToAccount(key),
      chain: optimism,
      transport: http(rpcUrl),
    });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await wallet.sendTransaction({ to, value: parseEther("1.5") });
    const receipt = await chain.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    assert.equal(await chain.getBalance({ address: to }), parseEther("1.5"));
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    assert.equal(
      await chain.getBalance({ address: carol.custodyAddress }),
      SEVEN_ETH - parseEther("1.5") - fee,
    );

    const nonce = (await chain.getTransaction({ hash })).nonce;
    assert.deepEqual(stdoutLines(await castnet(env, "chain", "tx", hash)), [
      `hash          ${hash}`,
      `status        success (block ${receipt.blockNumber}, index ${receipt.transactionIndex})`,
      `from          ${carol.custodyAddress}`,
      `to            ${to}`,
      "value         1.5 ETH",
      `nonce         ${nonce}`,
      `gasUsed       ${receipt.gasUsed}`,
      `fee           ${formatEther(fee)} ETH`,
      "logs          0",
    ]);
  });

  it("shows an operator write's logs by contract and event name", async () => {
    const first = (await chain.getBlock({ blockNumber: 1n })).transactions[0]!;
    const tx = json<{ from: string; to: null; status: string; value: string }>(
      await castnet(env, "chain", "tx", first, "--json"),
    );
    assert.deepEqual([tx.status, tx.to, tx.value], ["success", null, "0"]);
    // carol's registration: an operator write, whose Register log castnet names from the ABI.
    const register = json<{ transactions: Hex[] }>(await castnet(env, "chain", "block", "2", "--json"))
      .transactions[0]!;
    const shown = json<{ logs: { logIndex: number; contract: string; event: string }[] }>(
      await castnet(env, "chain", "tx", register, "--json"),
    );
    assert.deepEqual(
      shown.logs.map((log) => [log.logIndex, log.contract, log.event]),
      [[0, "IdRegistry", "Register"]],
    );
  });

  it("sets a balance with chain fund, once mined", async () => {
    const someone = privateKeyToAccount(generatePrivateKey()).address;
    const run = await castnet(env, "chain", "fund", someone.toLowerCase(), "2.5");
    const [line] = stdoutLines(run);
    const match = /^(0x[0-9a-fA-F]{40}) now has 2\.5 ETH \(transaction (0x[0-9a-f]{64}), block (\d+)\)$/.exec(
      line!,
    );
    assert.ok(match, line);
    assert.equal(match[1], someone);
    const receipt = await chain.getTransactionReceipt({ hash: match[2] as Hex });
    assert.equal(receipt.blockNumber, BigInt(match[3]!));
    assert.equal(await chain.getBalance({ address: someone }), parseEther("2.5"));
    const again = json(await castnet(env, "chain", "fund", "kept", "0", "--json"));
    assert.deepEqual(
      { ...again, transactionHash: undefined, blockNumber: undefined },
      {
        address: kept.address,
        account: "kept",
        balance: "0",
        ether: "0",
        transactionHash: undefined,
        blockNumber: undefined,
      },
    );
    assert.equal(await chain.getBalance({ address: kept.address }), 0n);
  });

  it("mines blocks on demand and shows a block", async () => {
    const before = Number(await chain.getBlockNumber());
    assert.deepEqual(stdoutLines(await castnet(env, "chain", "mine")), [`mined block ${before + 1}`]);
    assert.deepEqual(stdoutLines(await castnet(env, "chain", "mine", "3")), [
      `mined 3 blocks: ${before + 2} to ${before + 4}`,
    ]);
    assert.deepEqual(json(await castnet(env, "chain", "mine", "2", "--json")), {
      blocks: [before + 5, before + 6],
    });

    const block = await chain.getBlock({ blockNumber: 1n });
    const time = new Date(Number(block.timestamp) * 1000).toISOString().replace("T", " ").slice(0, 19);
    assert.deepEqual(stdoutLines(await castnet(env, "chain", "block", "1")), [
      "number        1",
      `hash          ${block.hash}`,
      `parentHash    ${block.parentHash}`,
      `timestamp     ${block.timestamp} (${time} UTC)`,
      `gasUsed       ${block.gasUsed}`,
      `baseFeePerGas ${block.baseFeePerGas} wei`,
      "transactions  1",
      `  ${block.transactions[0]}`,
    ]);
    const latest = await chain.getBlock();
    assert.deepEqual(json(await castnet(env, "chain", "block", "--json")), {
      number: Number(latest.number),
      hash: latest.hash,
      parentHash: latest.parentHash,
      timestamp: Number(latest.timestamp),
      gasUsed: Number(latest.gasUsed),
      baseFeePerGas: String(latest.baseFeePerGas),
      transactions: [],
    });
  });

  it("tops up, at the next start, only the accounts below the --dev-balance", async () => {
    const carol = new Keystore(dataDir).get("carol").custodyAddress;
    json(await castnet(env, "chain", "fund", "carol", "10", "--json"));
    json(await castnet(env, "chain", "fund", "kept", "1", "--json"));
    const last = await chain.getBlockNumber();
    await stack.stop();
    stack = await startCastnetProcess(
      [...FREE_PORTS, "--data-dir", dataDir, "--block-time", "0", "--dev-balance", "7"],
      { env: { CASTNET_LOG_LEVEL: "warn" } },
    );
    rpcUrl = stack.urls.devchain!;
    chain = publicClient(rpcUrl);
    assert.equal(await chain.getBalance({ address: kept.address }), SEVEN_ETH);
    assert.equal(await chain.getBalance({ address: carol }), parseEther("10"));
    assert.equal(await chain.getBlockNumber(), last + 1n);
    assert.equal((await chain.getBlock()).transactions.length, 1);
  });

  it("refuses what it cannot read, and says what is not there", async () => {
    const refusal = async (status: number, args: string[], runEnv: NodeJS.ProcessEnv = env) => {
      const run = await castnet(runEnv, ...args);
      assert.equal(run.status, status, run.stderr);
      assert.equal(run.stdout, "");
      return errorLines(run).at(-1);
    };
    assert.equal(
      await refusal(2, ["chain", "balance", "nobody"]),
      `castnet: no account named "nobody" in ${join(dataDir, "keystore.json")} (see castnet account list)`,
    );
    assert.equal(
      await refusal(2, ["chain", "balance", "0x1234"]),
      'castnet: "0x1234" is not an address (0x and 40 hex digits)',
    );
    assert.equal(
      await refusal(2, ["chain", "fund", "kept", "lots"]),
      'castnet: <ether> must be an amount of ether from 0 to 1000000000 with at most 18 decimals (100, 0.5), got "lots"',
    );
    assert.equal(
      await refusal(2, ["chain", "tx", "0xabc"]),
      'castnet: "0xabc" is not a transaction hash (0x and 64 hex digits)',
    );
    const unknown = `0x${"ab".repeat(32)}`;
    assert.equal(
      await refusal(1, ["chain", "tx", unknown]),
      `castnet: the devchain has no transaction ${unknown}`,
    );
    const latest = await chain.getBlockNumber();
    assert.equal(
      await refusal(1, ["chain", "block", "999999"]),
      `castnet: there is no block 999999 yet: the latest is block ${latest}`,
    );
    assert.equal(
      await refusal(2, ["chain", "block", "next"]),
      'castnet: "next" is not a block: give a block number or latest',
    );
    assert.equal(
      await refusal(2, ["chain", "mine", "0"]),
      'castnet: blocks must be a whole number from 1 to 100, got "0"',
    );
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    assert.equal(
      await refusal(1, ["chain", "block"], { CASTNET_DATA_DIR: scratchDir(), CASTNET_CHAIN_URL: nowhere }),
      `castnet: cannot reach the devchain at ${nowhere}: is castnet running?`,
    );
    assert.equal(
      await refusal(1, ["chain", "block"], {
        CASTNET_DATA_DIR: scratchDir(),
        CASTNET_CHAIN_URL: stack.urls.hub!,
      }),
      `castnet: ${stack.urls.hub} answered eth_getBlockByNumber with status 404 and no JSON-RPC response: is it castnet's devchain?`,
    );
  });
});
