/**
 * A thread of the registry's signature pool: recovering a user's EIP-712 signer costs milliseconds of
 * CPU, so POST /transfers checks signatures and countersigns off the event loop, on every core.
 */
import { parentPort, workerData } from "node:worker_threads";
import { privateKeyToAccount } from "viem/accounts";
import { verifyAdminTransfer } from "../protocol/eip712/adminTransfer.js";
import { signUsernameProof, verifyUsernameProof } from "../protocol/eip712/usernameProof.js";
import type { SignatureJob, SignatureResult, SignerSetup } from "./signatures.js";

const setup = workerData as SignerSetup;
const account = privateKeyToAccount(setup.privateKey);
const proof = { verifyingContract: setup.proofVerifyingContract };
const ccip = { verifyingContract: setup.ccipVerifyingContract };

async function run(job: SignatureJob): Promise<SignatureResult> {
  if (job.kind === "ccip") {
    const signature = await signUsernameProof(account, setup.naming, job.claim, ccip);
    return { id: job.id, signature, bound: false };
  }
  const bound =
    job.adminTransfer !== undefined &&
    (await verifyAdminTransfer(job.adminTransfer, job.signature, job.expectedSigner, proof));
  if (
    !bound &&
    !(await verifyUsernameProof(setup.naming, job.claim, job.signature, job.expectedSigner, proof))
  ) {
    return { id: job.id, signature: undefined, bound };
  }
  return { id: job.id, signature: await signUsernameProof(account, setup.naming, job.claim, proof), bound };
}

parentPort?.on("message", (job: SignatureJob) => {
  run(job).then(
    (result) => parentPort?.postMessage(result),
    (error: unknown) =>
      parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
