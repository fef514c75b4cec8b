/**
 * hub-gasless: keys added by message (src/hub/merge/gaslessKeys.ts), through POST /v1/submitMessage
 * at concurrency 32 on SQLite, the load from the generator's child process:
 *
 * - KEY_ADDs, several per fid: the hub's CPU per KEY_ADD against one EIP-712 signer recovery. Each
 *   costs two recoveries (the app's request, the custody's authorisation) and an Ed25519 verify in
 *   the verifier threads, and a merge of a few reads and writes: target ≤ 4x.
 * - casts signed by those keys: CPU per cast against one Ed25519 verify, with the hub-submit
 *   suite's target (≤ 3x): a key added by message costs a lookup, a scope and lifetime check.
 */
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDevchain } from "../src/devchain/index.js";
import { createLogger, listen } from "../src/http/index.js";
import { createHub } from "../src/hub/index.js";
import { generateEd25519KeyPair } from "../src/protocol/ed25519.js";
import { buildKeyAddBody } from "../src/protocol/gaslessKeyBodies.js";
import { MessageType, SocialNetwork } from "../src/protocol/generated/message.js";
import { NEUTRAL } from "../src/protocol/naming.js";
import { currentProtocolTime } from "../src/protocol/time.js";
import { castData, noNames, registerFids, signer } from "./casts.js";
import type { BenchContext } from "./context.js";
import { ed25519VerifyMicros, eip712RecoverMicros } from "./floors.js";
import { LoadGenerator, type Plan, type Request } from "./load.js";
import { steadyRound } from "./round.js";

const FULL = { fids: 250, keysPerFid: 4, castsPerKey: 10, floorMs: 2_000 };
const QUICK = { fids: 50, keysPerFid: 4, castsPerKey: 20, floorMs: 500 };
const CONCURRENCY = 32;

interface Added {
  fid: number;
  privateKey: Uint8Array;
}

/** The n-th round of KEY_ADDs: one per fid, nonce n + 1, each for a fresh key. */
async function keyAdds(
  fids: number[],
  custodies: PrivateKeyAccount[],
  n: number,
): Promise<{ requests: Request[]; added: Added[] }> {
  const timestamp = currentProtocolTime() - 60;
  const requests: Request[] = [];
  const added: Added[] = [];
  for (const [i, fid] of fids.entries()) {
    const keyPair = generateEd25519KeyPair();
    const body = await buildKeyAddBody(
      {
        fid,
        key: keyPair.publicKey,
        scopes: [MessageType.CAST_ADD],
        ttl: 86_400,
        nonce: n + 1,
        deadline: timestamp + 3_600,
      },
      custodies[i]!,
      NEUTRAL,
    );
    const data = {
      type: MessageType.KEY_ADD,
      fid,
      timestamp,
      network: SocialNetwork.DEVNET,
      keyAddBody: body,
    };
    requests.push({
      method: "POST",
      path: "/v1/submitMessage",
      contentType: "application/octet-stream",
      body: signer(keyPair.privateKey)(data),
    });
    added.push({ fid, privateKey: keyPair.privateKey });
  }
  return { requests, added };
}

function casts(keys: Added[], first: number, count: number): Request[] {
  const signers = keys.map((key) => signer(key.privateKey));
  const now = currentProtocolTime() - 30;
  const requests: Request[] = [];
  for (let n = first; n < first + count; n++) {
    keys.forEach((key, i) =>
      requests.push({
        method: "POST",
        path: "/v1/submitMessage",
        contentType: "application/octet-stream",
        body: signers[i]!(castData(key.fid, now - n, `cast ${n} by key ${i}, added by message`)),
      }),
    );
  }
  return requests;
}

export async function benchHubGasless({ quick, cpu, summary }: BenchContext): Promise<void> {
  const size = quick ? QUICK : FULL;
  const dir = mkdtempSync(join(tmpdir(), "castnet-bench-gasless-"));
  const devchain = await createDevchain({
    database: { engine: "sqlite", path: join(dir, "chain.sqlite") },
    logger: createLogger("silent"),
    blockTimeSeconds: 3_600,
  });
  const generator = new LoadGenerator();
  try {
    const recoverMicros = await eip712RecoverMicros(size.floorMs);
    const verifyMicros = await ed25519VerifyMicros(size.floorMs);
    const custodies = Array.from({ length: size.fids }, () => privateKeyToAccount(generatePrivateKey()));
    const onChainKeys = Array.from({ length: size.fids }, () => generateEd25519KeyPair().privateKey);
    const fids = await registerFids(
      devchain.chain,
      onChainKeys,
      10,
      custodies.map((c) => c.address),
    );
    const hub = await createHub({
      database: { engine: "sqlite", path: join(dir, "hub.sqlite") },
      logger: createLogger("silent"),
      naming: NEUTRAL,
      network: "devnet",
      chain: devchain.chain,
      registry: noNames,
    });
    await hub.service.syncChain();
    const address = new URL(await listen(hub.app, "hub", "127.0.0.1", 0)).host;
    const plan = (requests: Request[]): Plan => ({
      protocol: "http",
      address,
      concurrency: CONCURRENCY,
      requests,
      count: requests.length,
    });

    const half = size.keysPerFid / 2;
    const warm: Request[] = [];
    const measured: Request[] = [];
    const keys: Added[] = [];
    for (let n = 0; n < size.keysPerFid; n++) {
      const round = await keyAdds(fids, custodies, n);
      (n < half ? warm : measured).push(...round.requests);
      keys.push(...round.added);
    }
    const added = await steadyRound(cpu, generator, plan(warm), plan(measured));
    summary.report({
      name: "hub KEY_ADD",
      detail: `${measured.length.toLocaleString("en-US")} KEY_ADDs from ${size.fids} fids at concurrency ${CONCURRENCY}, after as many others`,
      unit: "message",
      round: added,
      floor: { name: "EIP-712 recover", micros: recoverMicros },
      maxRatio: 4,
    });

    const perKey = size.castsPerKey / 2;
    const signed = await steadyRound(
      cpu,
      generator,
      plan(casts(keys, 0, perKey)),
      plan(casts(keys, perKey, perKey)),
    );
    summary.report({
      name: "hub cast by a key added by message",
      detail: `${(keys.length * perKey).toLocaleString("en-US")} casts by ${keys.length} such keys at concurrency ${CONCURRENCY}, after as many others`,
      unit: "message",
      round: signed,
      floor: { name: "Ed25519 verify", micros: verifyMicros },
      maxRatio: 3,
    });
    await hub.close();
  } finally {
    generator.close();
    await devchain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
