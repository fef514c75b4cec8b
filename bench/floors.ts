/**
 * The floors each phase is held against, measured in the same run: what the work would cost with
 * nothing of castnet around it.
 */
import { createPublicKey, verify } from "node:crypto";
import Fastify from "fastify";
import type { LoadGenerator, Plan } from "./load.js";
import { measureRound, median, perOperation, type Round } from "./round.js";
import type { ThreadCpu } from "./threadCpu.js";
import { recoverTypedDataAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { ed25519PublicKey, generateEd25519KeyPair, signEd25519 } from "../src/protocol/ed25519.js";
import { usernameProofTypedData } from "../src/protocol/eip712/usernameProof.js";
import { NEUTRAL } from "../src/protocol/naming.js";

function cpuMicros(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return user + system;
}

/** µs of this thread's CPU per call of `step`, over about `ms` of CPU after a short warm-up. */
async function cpuPerCall(ms: number, step: () => unknown): Promise<number> {
  for (let i = 0; i < 50; i++) await step();
  let count = 0;
  const start = process.cpuUsage();
  while (cpuMicros(start) < ms * 1000) {
    for (let i = 0; i < 20; i++) await step();
    count += 20;
  }
  return cpuMicros(start) / count;
}

/**
 * One Ed25519 verify of node:crypto with the key object parsed once, in µs of CPU: the signature
 * check no hub can skip, the floor the hub's targets are set against (the hub itself verifies with
 * libsodium, src/protocol/ed25519.ts, in about half that).
 */
export function ed25519VerifyMicros(ms: number): Promise<number> {
  const { privateKey } = generateEd25519KeyPair();
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), ed25519PublicKey(privateKey)]),
    format: "der",
    type: "spki",
  });
  const hash = new Uint8Array(20).fill(7);
  const signature = signEd25519(hash, privateKey);
  return cpuPerCall(ms, () => verify(null, hash, key, signature));
}

/** viem's EIP-712 signer recovery of a username proof (hashing the typed data, recovering the key), in µs. */
export async function eip712RecoverMicros(ms: number): Promise<number> {
  const account = privateKeyToAccount(generatePrivateKey());
  const typedData = usernameProofTypedData(NEUTRAL, {
    name: "benchmark",
    timestamp: Math.floor(Date.now() / 1000),
    owner: account.address,
  });
  const signature = await account.signTypedData(typedData);
  return cpuPerCall(ms, () => recoverTypedDataAddress({ ...typedData, signature }));
}

/** A route measured against its floor, each figure the median of rounds run in turn. */
export interface AgainstFloor {
  /** The route's round of median CPU per request: its split and latencies are the ones printed. */
  round: Round;
  micros: number;
  floor: number;
  /** Each round's µs per request, in the order run. */
  rounds: { route: number[]; floor: number[] };
}

/**
 * The route at `address` against the HTTP server's own cost of a request that returns the same
 * bytes: a bare Fastify app (logger off, one GET route at `path`) answering `body` as JSON. After a
 * warm-up of each, `sizes.rounds` rounds of each run in alternating order, with the same load
 * (`plan` makes it for an address); the figures are the medians, in µs of this process's CPU per
 * request. Alternating keeps a machine whose speed drifts within the minute from deciding the ratio.
 */
export async function againstBareRoute(
  measured: { cpu: ThreadCpu; generator: LoadGenerator },
  address: string,
  path: string,
  body: string,
  plan: (address: string, limit: { count: number } | { durationMs: number }) => Plan,
  sizes: { warmUps: number; measureMs: number; rounds: number },
): Promise<AgainstFloor> {
  const app = Fastify();
  // GET for the REST routes, POST for JSON-RPC: the bare route takes either, as its route does.
  app.route({
    method: ["GET", "POST"],
    url: path,
    handler: (_request, reply) => {
      void reply.type("application/json").send(body);
    },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  try {
    const { port } = app.server.address() as { port: number };
    const bare = `127.0.0.1:${port}`;
    await measured.generator.run(plan(address, { count: sizes.warmUps }));
    await measured.generator.run(plan(bare, { count: sizes.warmUps }));
    const routeRounds: Round[] = [];
    const floor: number[] = [];
    for (let i = 0; i < sizes.rounds; i++) {
      const order = i % 2 === 0 ? [address, bare] : [bare, address];
      for (const at of order) {
        const round = await measureRound(
          measured.cpu,
          measured.generator,
          plan(at, { durationMs: sizes.measureMs }),
        );
        if (at === address) routeRounds.push(round);
        else floor.push(perOperation(round));
      }
    }
    const route = routeRounds.map(perOperation);
    const byCost = route.map((_, i) => i).sort((a, b) => route[a]! - route[b]!);
    return {
      round: routeRounds[byCost[Math.floor((byCost.length - 1) / 2)]!]!,
      micros: median(route),
      floor: median(floor),
      rounds: { route, floor },
    };
  } finally {
    await app.close();
  }
}

/** The rounds behind the medians, for a phase's detail line. */
export function roundsText({ rounds }: AgainstFloor): string {
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(", ");
  return `medians of ${rounds.route.length} alternating rounds (route ${list(rounds.route)}; bare ${list(rounds.floor)} µs), split and latencies of the median round`;
}
