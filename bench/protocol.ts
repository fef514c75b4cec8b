/**
 * Protocol core throughput: raw Ed25519 verification (the floor under message validation), our
 * validateMessage, the reference client library's validateMessage on the same messages, and JSON
 * rendering. One core, sequential; figures are per second of this process's CPU time.
 */
import * as ref from "@farcaster/core";
import { generateEd25519KeyPair, verifyEd25519 } from "../src/protocol/ed25519.js";
import type { Message } from "../src/protocol/generated/message.js";
import { MessageData } from "../src/protocol/generated/message.js";
import { renderMessage } from "../src/protocol/json/renderMessage.js";
import { writeMessageJson } from "../src/protocol/json/writeMessage.js";
import { decodeMessage, encodeMessage, signMessageData } from "../src/protocol/message.js";
import { NEUTRAL } from "../src/protocol/naming.js";
import { currentProtocolTime } from "../src/protocol/time.js";
import { validateMessage } from "../src/protocol/validation/validateMessage.js";

const MESSAGES = 1000;

function castMessages(): Message[] {
  const { privateKey } = generateEd25519KeyPair();
  const now = currentProtocolTime();
  const out: Message[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const data = MessageData.create({
      type: 1,
      fid: 1000 + (i % 50),
      timestamp: now - i,
      network: 1,
      castAddBody: {
        text: `benchmark cast number ${i} with a few words @ in it`,
        mentions: [2 + (i % 7)],
        mentionsPositions: [44],
        embeds: [{ url: `https://example.com/${i}` }],
        parentUrl: "https://example.com/channel",
      },
    });
    out.push(signMessageData(data, privateKey));
  }
  return out;
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

/**
 * Runs `step` over the items for about `seconds` of this process's CPU time and returns operations
 * per CPU second: on a shared machine, wall-clock rates mostly measure the neighbours.
 */
async function rate<T>(items: T[], seconds: number, step: (item: T) => unknown): Promise<number> {
  for (let i = 0; i < Math.min(items.length, 200); i++) await step(items[i]!);
  let count = 0;
  const start = process.cpuUsage();
  while (cpuSeconds(start) < seconds) {
    for (let i = 0; i < 50; i++) {
      await step(items[count % items.length]!);
      count++;
    }
  }
  return count / cpuSeconds(start);
}

function syncRate<T>(items: T[], seconds: number, step: (item: T) => unknown): number {
  for (let i = 0; i < Math.min(items.length, 200); i++) step(items[i]!);
  let count = 0;
  const start = process.cpuUsage();
  while (cpuSeconds(start) < seconds) {
    for (let i = 0; i < 100; i++) {
      step(items[count % items.length]!);
      count++;
    }
  }
  return count / cpuSeconds(start);
}

const fmt = (n: number): string => Math.round(n).toLocaleString("en-US");
const pct = (n: number): string => `${(n * 100).toFixed(1)}%`;

export async function benchProtocol(): Promise<void> {
  const messages = castMessages();
  const wire = messages.map(encodeMessage);
  const decoded = wire.map((bytes) => decodeMessage(bytes));
  const theirs = wire.map((bytes) => ref.Message.decode(bytes));

  for (const { message, dataBytes } of decoded.slice(0, 10)) {
    const verdict = await validateMessage(message, dataBytes);
    if (!verdict.ok) throw new Error(`benchmark message rejected: ${verdict.error.message}`);
  }

  // The machine may be shared: alternate short rounds of each measurement and keep each one's best,
  // so that a burst of outside load does not skew the ratios.
  let raw = 0;
  let ours = 0;
  let oursFromBytes = 0;
  let reference = 0;
  for (let round = 0; round < 5; round++) {
    raw = Math.max(
      raw,
      syncRate(messages, 0.6, (m) => verifyEd25519(m.signature, m.hash, m.signer)),
    );
    ours = Math.max(ours, await rate(decoded, 0.6, (d) => validateMessage(d.message, d.dataBytes)));
    oursFromBytes = Math.max(
      oursFromBytes,
      await rate(wire, 0.6, (bytes) => {
        const d = decodeMessage(bytes);
        return validateMessage(d.message, d.dataBytes);
      }),
    );
    reference = Math.max(reference, await rate(theirs, 0.6, (m) => ref.validations.validateMessage(m)));
  }
  console.log(`ed25519 verify (node:crypto, cached keys): ${fmt(raw)} verifies/s`);
  console.log(`validateMessage (castnet), cast messages: ${fmt(ours)} messages/s`);
  console.log(`decode + validateMessage (castnet), from wire bytes: ${fmt(oursFromBytes)} messages/s`);
  console.log(`validations.validateMessage (@farcaster/core): ${fmt(reference)} messages/s`);
  console.log(`ratio castnet / raw verify: ${pct(ours / raw)} (target >= 85%)`);
  console.log(`ratio castnet / @farcaster/core: ${(ours / reference).toFixed(1)}x (target >= 10x)`);

  let render = 0;
  let write = 0;
  let refRender = 0;
  for (let round = 0; round < 3; round++) {
    render = Math.max(
      render,
      syncRate(decoded, 0.4, (d) => JSON.stringify(renderMessage(d.message, NEUTRAL))),
    );
    write = Math.max(
      write,
      syncRate(decoded, 0.4, (d) => writeMessageJson(d.message, NEUTRAL)),
    );
    refRender = Math.max(
      refRender,
      syncRate(theirs, 0.4, (m) => JSON.stringify(ref.Message.toJSON(m))),
    );
  }
  console.log(`renderMessage + JSON.stringify (castnet): ${fmt(render)} messages/s`);
  console.log(`writeMessageJson (castnet, direct text): ${fmt(write)} messages/s`);
  console.log(
    `Message.toJSON + JSON.stringify (@farcaster/core, before the hub's hex rewrite): ${fmt(refRender)} messages/s`,
  );
}
