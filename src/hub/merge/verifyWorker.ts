/**
 * Worker thread of the verifier pool: stateless validation (hashes, Ed25519 signatures, EIP-712
 * claims) off the main thread. Receives batches of raw message bytes, answers with the ids that
 * passed and the errors of the others.
 */
import { parentPort, workerData } from "node:worker_threads";
import { namingProfile, type NamingProfileName } from "../../protocol/naming.js";
import { validateBatch, type VerifyBatch } from "./verify.js";

const profile = namingProfile((workerData as { profile: NamingProfileName }).profile);

parentPort!.on("message", async (batch: VerifyBatch) => {
  const reply = await validateBatch(batch, profile);
  parentPort!.postMessage(reply, [reply.passed.buffer as ArrayBuffer]);
});
// Requests sent before this module finished loading would be lost; the pool waits for this.
parentPort!.postMessage("ready");
