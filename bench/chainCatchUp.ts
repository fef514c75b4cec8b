/**
 * A hub's catch-up with the chain: a fresh hub merging every on-chain event of a devchain, over the
 * devchain's Ethereum JSON-RPC (eth_getLogs in ranges, block times by hash: what a hub following
 * OP mainnet does) against the same catch-up from the devchain in process (the all-in-one stack's
 * way). The figure is the process's CPU per event (the hub's and the devchain's, both here); the
 * target, the JSON-RPC catch-up's rate (events a second, wall time) at least half the in-process
 * one's. Rounds alternate, each with a hub of its own on a fresh SQLite file; the best of each counts.
 *
 * The chain: fids registered 20 to a block, each with a key and 1 storage unit rented: three events
 * a fid (34,000 fids, 102,000 events; 1,000 fids in --quick).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Hex, numberToHex } from "viem";
import { createDevchain } from "../src/devchain/index.js";
import { createHub } from "../src/hub/index.js";
import { createLogger, listen } from "../src/http/index.js";
import type { OnChainEventSource } from "../src/interfaces/chain.js";
import { jsonRpcEventSource } from "../src/interfaces/chainRpc.js";
import { NEUTRAL } from "../src/protocol/naming.js";
import { noNames } from "./casts.js";
import type { BenchContext } from "./context.js";

const FULL = { fids: 34_000, rounds: 2 };
const QUICK = { fids: 1_000, rounds: 2 };
const FIDS_PER_BLOCK = 20;

interface Figures {
  cpu: number;
  wall: number;
}

const custody = (i: number) => numberToHex(i + 1, { size: 20 });
const keyOf = (fid: number) => numberToHex(fid, { size: 32 }) as Hex;

export async function benchChainCatchUp({ quick, summary }: BenchContext): Promise<void> {
  const size = quick ? QUICK : FULL;
  const dir = mkdtempSync(join(tmpdir(), "castnet-bench-catchup-"));
  const logger = createLogger("silent");
  // Mined only when told: each block takes a hundred fids' writes.
  const devchain = await createDevchain({
    database: { engine: "sqlite", path: join(dir, "chain.sqlite") },
    logger,
    blockTimeSeconds: 3600,
  });
  try {
    const filled = Date.now();
    for (let first = 0; first < size.fids; first += FIDS_PER_BLOCK) {
      const batch = Array.from({ length: Math.min(FIDS_PER_BLOCK, size.fids - first) }, (_, i) => first + i);
      const fids = await Promise.all(
        batch.map(async (i) => (await devchain.chain.submitRegister({ custody: custody(i) })).fid),
      );
      await devchain.chain.mine();
      await Promise.all(
        fids.flatMap((fid) => [
          devchain.chain.submitKeyAdd({ fid, key: keyOf(fid), keyType: 1, metadataType: 1, metadata: "0x" }),
          devchain.chain.submitStorageRent(fid, 1),
        ]),
      );
      await devchain.chain.mine();
    }
    const events = size.fids * 3;
    const fillSeconds = (Date.now() - filled) / 1000;
    const rpcUrl = await listen(devchain.app, "devchain", "127.0.0.1", 0);

    /** CPU and wall µs per event of one catch-up by a fresh hub following `chain`. */
    const catchUp = async (name: string, chain: OnChainEventSource): Promise<Figures> => {
      const path = join(dir, `hub-${name}-${Date.now()}.sqlite`);
      const hub = await createHub({
        database: { engine: "sqlite", path },
        logger,
        naming: NEUTRAL,
        network: "devnet",
        chain,
        registry: noNames,
      });
      try {
        const started = process.hrtime.bigint();
        const cpu = process.cpuUsage();
        await hub.service.syncChain();
        const used = process.cpuUsage(cpu);
        const figures = {
          cpu: (used.user + used.system) / events,
          wall: Number(process.hrtime.bigint() - started) / 1000 / events,
        };
        const merged = (await hub.service.info(true)).dbStats?.numFidEvents;
        if (merged !== events) throw new Error(`the ${name} catch-up merged ${merged} of ${events} events`);
        return figures;
      } finally {
        await hub.close();
        rmSync(path, { force: true });
        rmSync(`${path}-wal`, { force: true });
        rmSync(`${path}-shm`, { force: true });
      }
    };
    const inProcess: Figures[] = [];
    const overRpc: Figures[] = [];
    for (let round = 0; round < size.rounds; round++) {
      inProcess.push(await catchUp("in-process", devchain.chain));
      overRpc.push(await catchUp("json-rpc", jsonRpcEventSource({ url: rpcUrl, confirmations: 0 })));
    }
    const best = (rounds: Figures[], figure: keyof Figures) => Math.min(...rounds.map((r) => r[figure]));
    const perSecond = (micros: number) => 1e6 / micros;
    const rateRatio = perSecond(best(overRpc, "wall")) / perSecond(best(inProcess, "wall"));
    const show = (rounds: Figures[]) =>
      rounds.map((r) => `${Math.round(perSecond(r.wall)).toLocaleString("en-US")}`).join(", ");
    summary.report({
      name: "hub catch-up over JSON-RPC",
      detail: `a fresh hub merging ${events.toLocaleString("en-US")} on-chain events (${size.fids.toLocaleString("en-US")} fids; the chain filled in ${fillSeconds.toFixed(0)} s); events/s by round, JSON-RPC ${show(overRpc)}, in process ${show(inProcess)}`,
      unit: "event",
      micros: best(overRpc, "cpu"),
      floor: { name: "in-process catch-up", micros: best(inProcess, "cpu") },
      targets: [
        {
          figure: `rate ${rateRatio.toFixed(2)} of the in-process catch-up's`,
          goal: "≥ 0.5",
          met: rateRatio >= 0.5,
        },
      ],
    });
  } finally {
    await devchain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
