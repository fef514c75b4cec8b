/**
 * Name registry on a SQLite file holding 100,000 transfers (20,000 in --quick); the registry runs in
 * this process, the load comes from the generator's child process, 32 requests in flight:
 *
 * (a) POST /transfers: registrations/s against viem's EIP-712 recover rate on one core (target: ≥ 80%
 *     of it), and CPU per registration against one recovery;
 * (b) GET /transfers?name=: CPU per request against a bare Fastify route answering the same bytes
 *     (target ≤ 2.5x), and requests/s (target ≥ 10,000).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createDevchain } from "../src/devchain/index.js";
import { createLogger, listen } from "../src/http/index.js";
import { usernameProofTypedData } from "../src/protocol/eip712/usernameProof.js";
import { NEUTRAL } from "../src/protocol/naming.js";
import { createRegistry } from "../src/registry/index.js";
import { registryMigrations } from "../src/registry/migrations/index.js";
import { recordTransfer } from "../src/registry/store.js";
import type { RegistryTables } from "../src/registry/tables.js";
import { migrate, openDatabase, serializedTransaction } from "../src/storage/index.js";
import type { BenchContext } from "./context.js";
import { againstBareRoute, eip712RecoverMicros, roundsText } from "./floors.js";
import { LoadGenerator, type Plan, type Request } from "./load.js";
import { steadyRound } from "./round.js";

const FULL = {
  seeded: 100_000,
  registrations: 2_000,
  recoverMs: 3_000,
  warmUps: 10_000,
  measureMs: 3_000,
  rounds: 3,
};
const QUICK = {
  seeded: 20_000,
  registrations: 300,
  recoverMs: 500,
  warmUps: 1_000,
  measureMs: 1_000,
  rounds: 3,
};
const SEED_BATCH = 1_000;
const CONCURRENCY = 32;

const seededName = (i: number) => `seed${i}`;

/** Registrations written straight through the store: the GET benchmark only reads them. */
async function seed(path: string, count: number): Promise<void> {
  const database = openDatabase<RegistryTables>({ engine: "sqlite", path });
  await migrate(database, "registry", registryMigrations);
  const timestamp = Math.floor(Date.now() / 1000) - 30 * 24 * 60 * 60;
  const signature = `0x${"11".repeat(65)}` as Hex;
  for (let from = 0; from < count; from += SEED_BATCH) {
    await serializedTransaction(database, "registry", async (trx) => {
      for (let i = from; i < from + SEED_BATCH; i++) {
        await recordTransfer(trx, {
          timestamp: timestamp + i,
          username: seededName(i),
          owner: `0x${(i + 1).toString(16).padStart(40, "0")}` as Address,
          from: 0,
          to: 1_000_000 + i,
          userSignature: signature,
          serverSignature: signature,
          userFid: 1_000_000 + i,
        });
      }
    });
  }
  await database.close();
}

export async function benchRegistry({ quick, cpu, summary }: BenchContext): Promise<void> {
  const size = quick ? QUICK : FULL;
  const dir = mkdtempSync(join(tmpdir(), "castnet-bench-registry-"));
  const logger = createLogger("silent");
  const registryPath = join(dir, "registry.sqlite");
  await seed(registryPath, size.seeded);
  // Fids are registered in one block; the timer never fires during the run.
  const devchain = await createDevchain({
    database: { engine: "sqlite", path: join(dir, "chain.sqlite") },
    logger,
    blockTimeSeconds: 3_600,
  });
  const registry = await createRegistry({
    database: { engine: "sqlite", path: registryPath },
    logger,
    chain: devchain.chain,
    naming: NEUTRAL,
    rateLimit: false,
  });
  const generator = new LoadGenerator();
  try {
    // A warm-up round of registrations, then the measured round of as many others.
    const users = Array.from({ length: 2 * size.registrations }, () =>
      privateKeyToAccount(generatePrivateKey()),
    );
    const fids: number[] = [];
    for (const user of users) fids.push((await devchain.chain.submitRegister({ custody: user.address })).fid);
    await devchain.chain.mine();
    const timestamp = Math.floor(Date.now() / 1000);
    const registrations: Request[] = await Promise.all(
      users.map(async (user, i) => {
        const name = `bench${i}`;
        const signature = await user.signTypedData(
          usernameProofTypedData(NEUTRAL, { name, timestamp, owner: user.address }),
        );
        const fid = fids[i]!;
        const body = JSON.stringify({
          name,
          from: 0,
          to: fid,
          fid,
          owner: user.address,
          timestamp,
          signature,
        });
        return {
          method: "POST",
          path: "/transfers",
          contentType: "application/json",
          body: Buffer.from(body),
        } as const;
      }),
    );
    const address = new URL(await listen(registry.app, "registry", "127.0.0.1", 0)).host;
    const recoverMicros = await eip712RecoverMicros(size.recoverMs);

    const each = (requests: Request[]): Plan => ({
      protocol: "http",
      address,
      concurrency: CONCURRENCY,
      requests,
      count: requests.length,
    });
    const posted = await steadyRound(
      cpu,
      generator,
      each(registrations.slice(0, size.registrations)),
      each(registrations.slice(size.registrations)),
    );
    const share = posted.load.done / posted.load.elapsedMs / (1000 / recoverMicros);
    summary.report({
      name: "registry POST /transfers",
      detail: `${size.registrations.toLocaleString("en-US")} registrations at concurrency ${CONCURRENCY}, after a warm-up round of as many others`,
      unit: "registration",
      round: posted,
      floor: { name: "EIP-712 recover", micros: recoverMicros },
      targets: [
        {
          figure: `throughput ${Math.round(share * 100)}% of one core's recover rate`,
          goal: "≥ 80%",
          met: share >= 0.8,
        },
      ],
    });

    const names: Request[] = Array.from({ length: 20_000 }, () => ({
      method: "GET",
      path: `/transfers?name=${seededName(Math.floor(Math.random() * size.seeded))}`,
    }));
    const timed = (at: string, limit: { count: number } | { durationMs: number }): Plan => ({
      protocol: "http",
      address: at,
      concurrency: CONCURRENCY,
      requests: names,
      ...limit,
    });
    const page = await (await fetch(`http://${address}${names[0]!.path}`)).text();
    const measured = await againstBareRoute({ cpu, generator }, address, "/transfers", page, timed, size);
    const got = measured.round;
    const perSecond = (got.load.done / got.load.elapsedMs) * 1000;
    summary.report({
      name: "registry GET /transfers?name=",
      detail: `random names of ${size.seeded.toLocaleString("en-US")}, concurrency ${CONCURRENCY}; rounds of ${size.measureMs / 1000} s after a warm-up of ${size.warmUps.toLocaleString("en-US")} requests; floor: a bare Fastify route answering the same ${Buffer.byteLength(page)} bytes; ${roundsText(measured)}`,
      unit: "request",
      round: got,
      micros: measured.micros,
      floor: { name: "bare route", micros: measured.floor },
      maxRatio: 2.5,
      targets: [
        {
          figure: `${Math.round(perSecond).toLocaleString("en-US")} requests/s`,
          goal: "≥ 10,000",
          met: perSecond >= 10_000,
        },
      ],
    });
  } finally {
    generator.close();
    await registry.close();
    await devchain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
