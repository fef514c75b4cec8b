/**
 * JSON schemas of the on-chain events renderOnChainEvent.ts writes and the hub events
 * renderHubEvent.ts writes (docs/reference/hub-http-api.md §2, §9), for the hub's OpenAPI document
 * and its event routes. They refer to the message schemas (messageSchema.ts) by `$id`; change them
 * with the renderers.
 */
import {
  HUB_EVENT_TYPE_NAMES,
  ID_REGISTER_EVENT_TYPE_NAMES,
  ON_CHAIN_EVENT_TYPE_NAMES,
  SIGNER_EVENT_TYPE_NAMES,
  TIER_TYPE_NAMES,
} from "./enums.js";
import { type NamedSchema, base64, enumSchema, hex, integer, object, ref } from "./messageSchema.js";

const body = (required: readonly string[], properties: Record<string, unknown>) => ({
  type: "object",
  required,
  additionalProperties: false,
  properties,
});
const text = { type: "string" } as const;

/** "OnChainEvent" (SPEC Events 5), as the hub and the devchain serve it; no enum of its has a brand word. */
export function onChainEventJsonSchema(): NamedSchema {
  return object(
    "OnChainEvent",
    [
      "type",
      "chainId",
      "blockNumber",
      "blockHash",
      "blockTimestamp",
      "transactionHash",
      "logIndex",
      "fid",
      "txIndex",
      "version",
    ],
    {
      type: enumSchema(ON_CHAIN_EVENT_TYPE_NAMES, "Which body is present."),
      chainId: integer,
      blockNumber: integer,
      blockHash: hex("The block's hash."),
      blockTimestamp: { ...integer, description: "Unix seconds." },
      transactionHash: hex("The transaction's hash."),
      logIndex: integer,
      fid: integer,
      signerEventBody: body(["key", "keyType", "eventType", "metadata", "metadataType"], {
        key: hex("The signer's public key."),
        keyType: integer,
        eventType: enumSchema(SIGNER_EVENT_TYPE_NAMES, "Added, removed or reset."),
        metadata: base64("The key's metadata."),
        metadataType: integer,
      }),
      signerMigratedEventBody: body(["migratedAt"], { migratedAt: integer }),
      idRegisterEventBody: body(["to", "eventType", "from", "recoveryAddress"], {
        to: hex("The custody address the fid went to."),
        eventType: enumSchema(ID_REGISTER_EVENT_TYPE_NAMES, "Registered, transferred or recovery changed."),
        from: hex("The custody address the fid came from; empty on registration."),
        recoveryAddress: hex("The recovery address."),
      }),
      storageRentEventBody: body(["payer", "units", "expiry"], {
        payer: base64("The paying address."),
        units: integer,
        expiry: { ...integer, description: "Unix seconds." },
      }),
      tierPurchaseEventBody: body(["tierType", "forDays", "payer"], {
        tierType: enumSchema(TIER_TYPE_NAMES, "The tier bought."),
        forDays: integer,
        payer: base64("The paying address."),
      }),
      txIndex: integer,
      version: integer,
    },
    "SPEC Events 5: an event of the chain the hub follows.",
  );
}

/** "OnChainEvent" and "HubEvent" (SPEC Events 1-4), which refers to the message schemas. */
export function eventJsonSchemas(): NamedSchema[] {
  const message = ref("Message");
  const hubEvent = object(
    "HubEvent",
    ["type", "id"],
    {
      type: enumSchema(HUB_EVENT_TYPE_NAMES, "Which body is present."),
      id: { ...integer, description: "Increasing in commit order (SPEC Events 2)." },
      mergeMessageBody: body(["deletedMessages"], {
        message,
        deletedMessages: { type: "array", items: message },
      }),
      pruneMessageBody: body([], { message }),
      revokeMessageBody: body([], { message }),
      mergeUsernameProofBody: body([], {
        usernameProof: ref("UserNameProof"),
        deletedUsernameProof: ref("UserNameProof"),
        usernameProofMessage: message,
        deletedUsernameProofMessage: message,
      }),
      mergeOnChainEventBody: body([], { onChainEvent: ref("OnChainEvent") }),
      mergeFailureBody: body(["code", "reason"], { message, code: text, reason: text }),
      blockConfirmedBody: body(["blockNumber", "shardIndex", "timestamp", "blockHash", "totalEvents"], {
        blockNumber: integer,
        shardIndex: integer,
        timestamp: integer,
        blockHash: hex("The block's hash."),
        totalEvents: integer,
      }),
      blockNumber: integer,
      shardIndex: integer,
      timestamp: integer,
    },
    "SPEC Events 1-4: one entry of the hub's event log.",
  );
  return [onChainEventJsonSchema(), hubEvent];
}
