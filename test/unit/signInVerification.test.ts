/**
 * verifySignIn's answers that need no chain of their own: a chain that fails is a 503 (or, when it
 * refuses, a 409), whichever door asked (the relay's authenticate or Quick Auth's verify-siwf), never
 * a fault of castnet's.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { ClientApiError } from "../../src/clientapi/errors.js";
import { verifySignIn } from "../../src/clientapi/signIn/verify.js";
import { createLogger } from "../../src/http/index.js";
import type { ChainClient } from "../../src/interfaces/chain.js";
import { signInMessage } from "../../src/protocol/siwf.js";

const account = privateKeyToAccount(generatePrivateKey());
const message = signInMessage({
  domain: "example.com",
  uri: "https://example.com/login",
  nonce: "abcdefgh1234",
  address: account.address,
  fid: 7,
});

function chainThatThrows(error: Error): ChainClient {
  const fail = () => Promise.reject(error);
  return { getAccount: fail, custodyOf: fail, fidOf: fail, submitKeyAdd: fail, getTransaction: fail };
}

const check = async () => ({
  message,
  signature: await account.signMessage({ message }),
  domain: "example.com",
  acceptAuthAddress: true,
  now: new Date(),
});

describe("verifySignIn against a failing chain", () => {
  it("answers 503 when the chain cannot be reached", async () => {
    await assert.rejects(
      verifySignIn(chainThatThrows(new Error("connect ECONNREFUSED")), await check(), createLogger("silent")),
      (error: unknown) =>
        error instanceof ClientApiError &&
        error.statusCode === 503 &&
        error.message === "the chain is unavailable; could not read or write the keys of fid 7",
    );
  });

  it("answers 409 when the chain refuses the read", async () => {
    const refused = Object.assign(new Error("no such fid"), { statusCode: 404 });
    await assert.rejects(
      verifySignIn(chainThatThrows(refused), await check(), createLogger("silent")),
      (error: unknown) =>
        error instanceof ClientApiError &&
        error.statusCode === 409 &&
        error.message === "the chain refused the keys of fid 7: no such fid",
    );
  });
});
