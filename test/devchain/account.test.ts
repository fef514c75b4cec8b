import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { bytesToHex, hexToBytes } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createAccount } from "../../src/stack/account.js";
import { DevchainError, type Devchain, createDevchain } from "../../src/devchain/index.js";
import { createLogger, listen } from "../../src/http/index.js";
import { ed25519PublicKey, signEd25519, verifyEd25519 } from "../../src/protocol/ed25519.js";
import { decodeSignedKeyRequestMetadata, verifySignedKeyRequest } from "../../src/protocol/eip712/index.js";
import { NEUTRAL, REFERENCE } from "../../src/protocol/naming.js";
import { testEngines } from "../support/databases.js";

const logger = createLogger("silent");
const ADMIN_TOKEN = "account-test-token";

for (const engine of await testEngines()) {
  describe(`castnet account create on ${engine.engine}`, { skip: engine.skip }, () => {
    let drop: () => Promise<void>;
    let devchain: Devchain;
    let chainUrl: string;

    before(async () => {
      const created = await engine.create();
      drop = created.drop;
      // A short block time: each of the three writes waits for its block, as against a real stack.
      devchain = await createDevchain({
        database: created.config,
        logger,
        blockTimeSeconds: 0.05,
        adminToken: ADMIN_TOKEN,
      });
      chainUrl = await listen(devchain.app, "devchain", "127.0.0.1", 0);
    });
    after(async () => {
      await devchain?.close();
      await drop?.();
    });

    it("creates a custody key, a fid, storage and an active Ed25519 signer", async () => {
      const details = await createAccount({ chainUrl, units: 4, adminToken: ADMIN_TOKEN });
      assert.deepEqual(Object.keys(details).sort(), [
        "balance",
        "custodyAddress",
        "custodyPrivateKey",
        "fid",
        "recoveryAddress",
        "signerPrivateKey",
        "signerPublicKey",
        "storageUnits",
        "warning",
      ]);
      assert.equal(details.fid, 1);
      assert.equal(details.warning, "development keys: never use on a real network");
      assert.equal(privateKeyToAccount(details.custodyPrivateKey).address, details.custodyAddress);
      assert.equal(details.recoveryAddress, details.custodyAddress);
      assert.equal(
        bytesToHex(ed25519PublicKey(hexToBytes(details.signerPrivateKey))),
        details.signerPublicKey,
      );
      const message = new Uint8Array([1, 2, 3]);
      assert.ok(
        verifyEd25519(
          signEd25519(message, hexToBytes(details.signerPrivateKey)),
          message,
          hexToBytes(details.signerPublicKey),
        ),
      );
      assert.equal(details.storageUnits, 4);

      const account = await devchain.chain.getAccount(details.fid);
      assert.equal(account?.custody, details.custodyAddress);
      assert.equal(account?.storageUnits, 4);
      assert.equal(account?.signers.length, 1);
      const signer = account!.signers[0]!;
      assert.equal(signer.key, details.signerPublicKey);
      assert.equal(signer.keyType, 1);
      assert.equal(signer.metadataType, 1);

      // The metadata is the self-request the key registry's validator expects.
      const metadata = decodeSignedKeyRequestMetadata(signer.metadata);
      assert.equal(metadata.requestFid, 1n);
      assert.equal(metadata.requestSigner, details.custodyAddress);
      const now = BigInt(Math.floor(Date.now() / 1000));
      assert.ok(
        metadata.deadline > now + 86_300n && metadata.deadline <= now + 86_400n,
        "valid for the recommended 24 hours",
      );
      const request = { requestFid: metadata.requestFid, key: signer.key, deadline: metadata.deadline };
      assert.equal(
        await verifySignedKeyRequest(NEUTRAL, request, metadata.signature, details.custodyAddress),
        NEUTRAL,
      );
    });

    it("signs under the reference profile when asked, and gives every account its own fid", async () => {
      const details = await createAccount({ chainUrl, units: 1, adminToken: ADMIN_TOKEN, naming: REFERENCE });
      assert.equal(details.fid, 2);
      assert.equal(details.balance, 0n);
      const signer = (await devchain.chain.getAccount(2))!.signers[0]!;
      const metadata = decodeSignedKeyRequestMetadata(signer.metadata);
      const request = { requestFid: 2n, key: signer.key, deadline: metadata.deadline };
      assert.equal(
        await verifySignedKeyRequest(REFERENCE, request, metadata.signature, details.custodyAddress),
        REFERENCE,
      );
    });

    it("gives the custody address the balance asked for, mined by the time it returns", async () => {
      const details = await createAccount({
        chainUrl,
        units: 1,
        adminToken: ADMIN_TOKEN,
        balance: 5n * 10n ** 18n,
      });
      assert.equal(details.balance, 5n * 10n ** 18n);
      const latest = (await devchain.chain.latestBlock()).number;
      assert.equal(await devchain.chain.ledger.balanceOf(details.custodyAddress, latest), 5n * 10n ** 18n);
    });

    it("fails with the devchain's refusal and leaves nothing behind without the admin token", async () => {
      // Blocks go on being mined (empty ones too): nothing behind is no event and nothing pending.
      const events = async () => (await devchain.chain.eventsFromBlock(0, 1000)).length;
      const before = await events();
      await assert.rejects(createAccount({ chainUrl, units: 1 }), (error: unknown) => {
        assert.ok(error instanceof DevchainError);
        assert.equal(error.code, "unauthorized");
        return true;
      });
      assert.equal(await events(), before);
      assert.equal(await devchain.chain.pendingTransactionCount(), 0);
    });
  });
}
