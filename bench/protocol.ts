/**
 * Protocol core throughput: raw Ed25519 verification (the floor under message validation), our
 * validateMessage, the reference client library's validateMessage on the same messages, and JSON
 * rendering. One core, sequential; figures are µs of this process's CPU time per message.
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
import type { BenchContext } from "./context.js";

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

/** Rounds of each measurement and the CPU seconds of each. */
const FULL = { rounds: 5, seconds: 0.6, renderRounds: 3, renderSeconds: 0.4 };
const QUICK = { rounds: 2, seconds: 0.2, renderRounds: 2, renderSeconds: 0.15 };

const micros = (perSecond: number) => 1e6 / perSecond;

export async function benchProtocol({ quick, summary }: BenchContext): Promise<void> {
  const size = quick ? QUICK : FULL;
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
  for (let round = 0; round < size.rounds; round++) {
    raw = Math.max(
      raw,
      syncRate(messages, size.seconds, (m) => verifyEd25519(m.signature, m.hash, m.signer)),
    );
    ours = Math.max(ours, await rate(decoded, size.seconds, (d) => validateMessage(d.message, d.dataBytes)));
    oursFromBytes = Math.max(
      oursFromBytes,
      await rate(wire, size.seconds, (bytes) => {
        const d = decodeMessage(bytes);
        return validateMessage(d.message, d.dataBytes);
      }),
    );
    reference = Math.max(
      reference,
      await rate(theirs, size.seconds, (m) => ref.validations.validateMessage(m)),
    );
  }
  const verify = { name: "Ed25519 verify", micros: micros(raw) };
  const detail = `${MESSAGES} cast messages, one thread, best of ${size.rounds} rounds of ${size.seconds} s CPU`;
  summary.report({
    name: "protocol validateMessage",
    detail,
    unit: "message",
    micros: micros(ours),
    floor: verify,
    // validateMessage at ≥ 85% of the raw verify rate.
    maxRatio: 1.18,
    targets: [
      {
        figure: `${(ours / reference).toFixed(1)}x the rate of @farcaster/core's validateMessage`,
        goal: "≥ 10x",
        met: ours / reference >= 10,
      },
    ],
  });
  summary.report({
    name: "protocol decode + validateMessage",
    detail: `${detail}, from wire bytes`,
    unit: "message",
    micros: micros(oursFromBytes),
    floor: verify,
  });

  let render = 0;
  let write = 0;
  let refRender = 0;
  for (let round = 0; round < size.renderRounds; round++) {
    render = Math.max(
      render,
      syncRate(decoded, size.renderSeconds, (d) => JSON.stringify(renderMessage(d.message, NEUTRAL))),
    );
    write = Math.max(
      write,
      syncRate(decoded, size.renderSeconds, (d) => writeMessageJson(d.message, NEUTRAL)),
    );
    refRender = Math.max(
      refRender,
      syncRate(theirs, size.renderSeconds, (m) => JSON.stringify(ref.Message.toJSON(m))),
    );
  }
  // The reference library's JSON (before the hub's hex rewrite) is the floor of rendering.
  const toJson = { name: "@farcaster/core toJSON", micros: micros(refRender) };
  const renderDetail = `${MESSAGES} cast messages, one thread, best of ${size.renderRounds} rounds of ${size.renderSeconds} s CPU`;
  summary.report({
    name: "protocol renderMessage + JSON.stringify",
    detail: renderDetail,
    unit: "message",
    micros: micros(render),
    floor: toJson,
  });
  summary.report({
    name: "protocol writeMessageJson",
    detail: `${renderDetail}, text written directly`,
    unit: "message",
    micros: micros(write),
    floor: toJson,
  });
}
