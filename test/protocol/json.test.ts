import assert from "node:assert/strict";
import { test } from "node:test";
import * as ref from "@farcaster/core";
import { Message } from "../../src/protocol/generated/message.js";
import { OnChainEvent } from "../../src/protocol/generated/onchain_event.js";
import { HubEvent } from "../../src/protocol/generated/hub_event.js";
import { UserNameProof } from "../../src/protocol/generated/username_proof.js";
import {
  parseOnChainEvent,
  parseUserNameProof,
  renderHubEvent,
  renderMessage,
  renderOnChainEvent,
  renderUserNameProof,
  writeMessageJson,
} from "../../src/protocol/json/index.js";
import { NEUTRAL, REFERENCE, type NamingProfile } from "../../src/protocol/naming.js";
import { referenceHubJson } from "./support/referenceJson.js";

const PROFILES_UNDER_TEST: NamingProfile[] = [NEUTRAL, REFERENCE];

/** Compares serialised text, so that key order counts too. */
function assertSameJson(actual: unknown, expected: unknown): void {
  assert.equal(JSON.stringify(actual), JSON.stringify(expected));
}

function ours<T>(codec: { decode(b: Uint8Array): T }, bytes: Uint8Array): T {
  return codec.decode(bytes);
}

const messageFactories = [
  ref.Factories.CastAddMessage,
  ref.Factories.CastRemoveMessage,
  ref.Factories.ReactionAddMessage,
  ref.Factories.ReactionRemoveMessage,
  ref.Factories.LinkAddMessage,
  ref.Factories.LinkRemoveMessage,
  ref.Factories.LinkCompactStateMessage,
  ref.Factories.VerificationAddEthAddressMessage,
  ref.Factories.VerificationAddSolAddressMessage,
  ref.Factories.VerificationRemoveMessage,
  ref.Factories.UserDataAddMessage,
  ref.Factories.UsernameProofMessage,
  ref.Factories.FrameActionMessage,
  ref.Factories.LendStorageMessage,
  ref.Factories.KeyAddMessage,
  ref.Factories.KeyRemoveMessage,
];

test("messages built by the reference library render as the reference hub would", async () => {
  for (const factory of messageFactories) {
    for (let i = 0; i < 5; i++) {
      const message = (await factory.create()) as ref.Message;
      const bytes = ref.Message.encode(message).finish();
      for (const profile of PROFILES_UNDER_TEST) {
        const decoded = ours(Message, bytes);
        assertSameJson(
          renderMessage(decoded, profile),
          referenceHubJson(ref.Message.toJSON(message), profile),
        );
        assert.equal(writeMessageJson(decoded, profile), JSON.stringify(renderMessage(decoded, profile)));
        if (i === 0) {
          const withBytes = { ...decoded, dataBytes: ref.MessageData.encode(message.data!).finish() };
          assert.equal(
            writeMessageJson(withBytes, profile),
            JSON.stringify(renderMessage(withBytes, profile)),
          );
        }
      }
    }
  }
});

test("on-chain events render as the reference hub would and parse back", () => {
  const factories = [
    ref.Factories.SignerOnChainEvent,
    ref.Factories.IdRegistryOnChainEvent,
    ref.Factories.SignerMigratedOnChainEvent,
    ref.Factories.StorageRentOnChainEvent,
  ];
  for (const factory of factories) {
    for (let i = 0; i < 10; i++) {
      const event = factory.build() as ref.OnChainEvent;
      const bytes = ref.OnChainEvent.encode(event).finish();
      const decoded = ours(OnChainEvent, bytes);
      const json = renderOnChainEvent(decoded);
      assertSameJson(json, referenceHubJson(ref.OnChainEvent.toJSON(event), NEUTRAL));
      const parsed = parseOnChainEvent(JSON.parse(JSON.stringify(json)));
      assert.deepEqual(OnChainEvent.encode(parsed).finish(), bytes);
    }
  }
});

test("username proofs render as the reference hub would and parse back", () => {
  for (let i = 0; i < 10; i++) {
    const proof = ref.Factories.UserNameProof.build() as ref.UserNameProof;
    const bytes = ref.UserNameProof.encode(proof).finish();
    for (const profile of PROFILES_UNDER_TEST) {
      const json = renderUserNameProof(ours(UserNameProof, bytes), profile);
      assertSameJson(json, referenceHubJson(ref.UserNameProof.toJSON(proof), profile));
      assert.deepEqual(
        UserNameProof.encode(parseUserNameProof(JSON.parse(JSON.stringify(json)))).finish(),
        bytes,
      );
    }
  }
});

test("hub events render as the reference hub would", async () => {
  const cast = (await ref.Factories.CastAddMessage.create()) as ref.Message;
  const removed = (await ref.Factories.CastRemoveMessage.create()) as ref.Message;
  const ens = (await ref.Factories.UsernameProofMessage.create()) as ref.Message;
  const events: ref.HubEvent[] = [
    ref.HubEvent.create({
      type: ref.HubEventType.MERGE_MESSAGE,
      id: 123456789,
      mergeMessageBody: { message: cast, deletedMessages: [removed] },
    }),
    ref.HubEvent.create({ type: ref.HubEventType.PRUNE_MESSAGE, id: 2, pruneMessageBody: { message: cast } }),
    ref.HubEvent.create({
      type: ref.HubEventType.REVOKE_MESSAGE,
      id: 3,
      revokeMessageBody: { message: cast },
    }),
    ref.HubEvent.create({
      type: ref.HubEventType.MERGE_USERNAME_PROOF,
      id: 4,
      mergeUsernameProofBody: {
        usernameProof: ens.data!.usernameProofBody,
        usernameProofMessage: ens,
        deletedUsernameProof: ref.Factories.UserNameProof.build(),
      },
    }),
    ref.HubEvent.create({
      type: ref.HubEventType.MERGE_ON_CHAIN_EVENT,
      id: 5,
      mergeOnChainEventBody: { onChainEvent: ref.Factories.SignerOnChainEvent.build() },
    }),
  ];
  for (const event of events) {
    const bytes = ref.HubEvent.encode(event).finish();
    for (const profile of PROFILES_UNDER_TEST) {
      assertSameJson(
        renderHubEvent(ours(HubEvent, bytes), profile),
        referenceHubJson(ref.HubEvent.toJSON(event), profile, "hubEvent"),
      );
    }
  }
});

test("golden: a known cast renders exactly", () => {
  const message: Message = {
    data: {
      type: 1,
      fid: 2,
      timestamp: 100,
      network: 1,
      castAddBody: {
        embedsDeprecated: [],
        mentions: [3],
        parentUrl: "https://example.com/channel",
        text: "hello ",
        mentionsPositions: [6],
        embeds: [{ castId: { fid: 4, hash: new Uint8Array(20).fill(0xab) } }],
        type: 0,
      },
    },
    hash: new Uint8Array(20).fill(1),
    hashScheme: 1,
    signature: new Uint8Array(64).fill(2),
    signatureScheme: 1,
    signer: new Uint8Array(32).fill(3),
  };
  const sig = Buffer.from(new Uint8Array(64).fill(2)).toString("base64");
  const expected =
    `{"data":{"type":"MESSAGE_TYPE_CAST_ADD","fid":2,"timestamp":100,"network":"SOCIAL_NETWORK_MAINNET",` +
    `"castAddBody":{"embedsDeprecated":[],"mentions":[3],"parentUrl":"https://example.com/channel",` +
    `"text":"hello ","mentionsPositions":[6],"embeds":[{"castId":{"fid":4,"hash":"0x${"ab".repeat(20)}"}}],` +
    `"type":"CAST"}},"hash":"0x${"01".repeat(20)}","hashScheme":"HASH_SCHEME_BLAKE3","signature":"${sig}",` +
    `"signatureScheme":"SIGNATURE_SCHEME_ED25519","signer":"0x${"03".repeat(32)}"}`;
  assert.equal(JSON.stringify(renderMessage(message, NEUTRAL)), expected);
  assert.equal(
    JSON.stringify(renderMessage(message, REFERENCE)),
    expected.replace("SOCIAL_NETWORK_MAINNET", "FARCASTER_NETWORK_MAINNET"),
  );
});

const ensProof = {
  timestamp: 1,
  name: "alice.eth",
  owner: "0x" + "11".repeat(20),
  signature: "AQI=",
  fid: 7,
  type: "USERNAME_TYPE_ENS_L1",
};

test("parsing accepts either profile's spelling of a username proof type", () => {
  assert.equal(parseUserNameProof(ensProof).type, 2);
  assert.equal(parseUserNameProof({ ...ensProof, type: "USERNAME_TYPE_NAMESERVICE_L1" }).type, 2);
});

test("parsing rejects garbage with a parse failure", () => {
  assert.throws(() => parseUserNameProof({ ...ensProof, type: "NOPE" }), {
    errCode: "bad_request.parse_failure",
  });
  assert.throws(() => parseOnChainEvent({ type: "EVENT_TYPE_SIGNER", fid: -1 }), {
    errCode: "bad_request.parse_failure",
  });
  assert.throws(() => parseOnChainEvent({ blockHash: "0xzz" }), { errCode: "bad_request.parse_failure" });
  assert.throws(() => parseOnChainEvent([]), { errCode: "bad_request.parse_failure" });
});

test("parsing reads a storage rent event's payer as 20 bytes", () => {
  const rent = parseOnChainEvent({
    type: 4,
    storageRentEventBody: { payer: "0x" + "22".repeat(20), units: 1, expiry: 5 },
  });
  assert.equal(rent.storageRentEventBody?.payer.length, 20);
});
