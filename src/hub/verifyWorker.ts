/**
 * Worker thread of the verifier pool: stateless validation (hashes, Ed25519 signatures, EIP-712
 * claims) off the main thread. Receives batches of raw message bytes, answers with the error of
 * each (or null when valid).
 */
import { parentPort, workerData } from "node:worker_threads";
import { namingProfile, type NamingProfileName } from "../protocol/naming.js";
import { validateBytes, type VerifyRequest, type VerifyVerdict } from "./verify.js";

const profile = namingProfile((workerData as { profile: NamingProfileName }).profile);

parentPort!.on("message", async (batch: VerifyRequest[]) => {
  const verdicts: VerifyVerdict[] = await Promise.all(
    batch.map((request) => validateBytes(request, profile)),
  );
  parentPort!.postMessage(verdicts);
});
// Requests sent before this module finished loading would be lost; the pool waits for this.
parentPort!.postMessage("ready");
