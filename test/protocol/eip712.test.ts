import assert from "node:assert/strict";
import { test } from "node:test";
import { ViemLocalEip712Signer, makeUserNameProofClaim } from "@farcaster/core";
import { bytesToHex, hexToBytes, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  decodeSignedKeyRequestMetadata,
  encodeSignedKeyRequestMetadata,
  keyGatewayAddTypedData,
  signKeyGatewayAdd,
  signSignedKeyRequest,
  signUsernameProof,
  signedKeyRequestTypedData,
  signVerificationClaim,
  verificationClaimTypedData,
  verifyVerificationClaim,
  usernameProofTypedData,
  verifyKeyGatewayAdd,
  verifySignedKeyRequest,
  verifyUsernameProof,
} from "../../src/protocol/eip712/index.js";
import { NEUTRAL, REFERENCE } from "../../src/protocol/naming.js";

const account = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());
const referenceSigner = new ViemLocalEip712Signer(account);
const key: Hex = bytesToHex(new Uint8Array(32).fill(9));

function unwrap<T>(result: { isOk(): boolean; _unsafeUnwrap(): T }): T {
  assert.ok(result.isOk());
  return result._unsafeUnwrap();
}

test("domains carry the profile's brand word", () => {
  const claim = { name: "alice", timestamp: 1n, owner: account.address };
  assert.equal(usernameProofTypedData(NEUTRAL, claim).domain?.name, "Service name verification");
  assert.equal(usernameProofTypedData(REFERENCE, claim).domain?.name, "Farcaster name verification");
  const request = { requestFid: 1n, key, deadline: 1n };
  assert.equal(signedKeyRequestTypedData(NEUTRAL, request).domain?.name, "Service SignedKeyRequestValidator");
  const add = {
    owner: account.address,
    keyType: 1,
    key,
    metadataType: 1,
    metadata: "0x" as Hex,
    nonce: 0n,
    deadline: 1n,
  };
  assert.equal(keyGatewayAddTypedData(NEUTRAL, add).domain?.name, "Service KeyGateway");
});

test("username proof: ours and the reference library's signatures verify under the right profile", async () => {
  const claim = { name: "alice", timestamp: 1_700_000_000n, owner: account.address };
  const ours = await signUsernameProof(account, NEUTRAL, claim);
  assert.equal(await verifyUsernameProof(NEUTRAL, claim, ours, account.address), NEUTRAL);
  assert.equal(await verifyUsernameProof(REFERENCE, claim, ours, account.address), NEUTRAL);
  assert.equal(await verifyUsernameProof(NEUTRAL, claim, ours, other.address), undefined);
  assert.equal(
    await verifyUsernameProof(NEUTRAL, { ...claim, name: "bob" }, ours, account.address),
    undefined,
  );

  const theirs = unwrap(
    await referenceSigner.signUserNameProofClaim(
      makeUserNameProofClaim({ name: "alice", owner: account.address, timestamp: 1_700_000_000 }),
    ),
  );
  assert.equal(await verifyUsernameProof(NEUTRAL, claim, theirs, account.address), REFERENCE);
  assert.equal(bytesToHex(theirs), await signUsernameProof(account, REFERENCE, claim));
});

test("signed key request and metadata match the reference library byte for byte", async () => {
  const request = { requestFid: 42n, key, deadline: 1_900_000_000n };
  const theirs = unwrap(
    await referenceSigner.signKeyRequest({ requestFid: 42n, key: hexToBytes(key), deadline: 1_900_000_000n }),
  );
  assert.equal(await verifySignedKeyRequest(NEUTRAL, request, theirs, account.address), REFERENCE);
  const ours = await signSignedKeyRequest(account, NEUTRAL, request);
  assert.equal(await verifySignedKeyRequest(REFERENCE, request, ours, account.address), NEUTRAL);
  assert.equal(await verifySignedKeyRequest(NEUTRAL, request, "0x1234", account.address), undefined);

  const theirMetadata = unwrap(
    await referenceSigner.getSignedKeyRequestMetadata({
      requestFid: 42n,
      key: hexToBytes(key),
      deadline: 1_900_000_000n,
    }),
  );
  const ourMetadata = encodeSignedKeyRequestMetadata({
    requestFid: 42n,
    requestSigner: account.address,
    signature: bytesToHex(theirs),
    deadline: 1_900_000_000n,
  });
  assert.equal(ourMetadata, bytesToHex(theirMetadata));
  assert.equal(hexToBytes(ourMetadata).length, 288);
  const decoded = decodeSignedKeyRequestMetadata(theirMetadata);
  assert.equal(decoded.requestFid, 42n);
  assert.equal(decoded.requestSigner, account.address);
  assert.equal(decoded.signature, bytesToHex(theirs));
  assert.equal(decoded.deadline, 1_900_000_000n);
  assert.throws(() => decodeSignedKeyRequestMetadata("0x1234"), { errCode: "bad_request.invalid_param" });
});

test("key gateway add verifies under either profile", async () => {
  const metadata = encodeSignedKeyRequestMetadata({
    requestFid: 1n,
    requestSigner: other.address,
    signature: `0x${"11".repeat(65)}`,
    deadline: 5n,
  });
  const add = {
    owner: account.address,
    keyType: 1,
    key,
    metadataType: 1,
    metadata,
    nonce: 3n,
    deadline: 99n,
  };
  const theirs = unwrap(await referenceSigner.signAdd({ ...add, key: hexToBytes(key) }));
  assert.equal(await verifyKeyGatewayAdd(NEUTRAL, add, theirs, account.address), REFERENCE);
  const ours = await signKeyGatewayAdd(account, NEUTRAL, add);
  assert.equal(await verifyKeyGatewayAdd(NEUTRAL, add, ours, account.address), NEUTRAL);
  assert.equal(await verifyKeyGatewayAdd(NEUTRAL, { ...add, nonce: 4n }, ours, account.address), undefined);
});

test("verification claims: the reference library's and ours verify, each under its own profile", async () => {
  const blockHash: Hex = `0x${"ab".repeat(32)}`;
  const claim = { fid: 9n, address: account.address, blockHash, network: 1 };
  const theirs = unwrap(
    await referenceSigner.signVerificationEthAddressClaim({ ...claim, protocol: 0 as const }),
  );
  assert.equal(await verifyVerificationClaim(NEUTRAL, claim, theirs), REFERENCE);
  const ours = await signVerificationClaim(account, NEUTRAL, claim);
  assert.equal(await verifyVerificationClaim(REFERENCE, claim, ours), NEUTRAL);
  assert.equal(await verifyVerificationClaim(NEUTRAL, { ...claim, network: 2 }, ours), undefined);
  assert.equal(verificationClaimTypedData(NEUTRAL, claim).domain?.name, "Service Verify Ethereum Address");
});
