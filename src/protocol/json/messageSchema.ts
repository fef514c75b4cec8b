/**
 * JSON schemas of the message JSON renderMessage.ts writes (docs/reference/hub-http-api.md §5), under
 * a naming profile's enum spellings, for the hub's OpenAPI document. Each schema has an `$id` and
 * refers to the others by it, so that a document lists each once. Field names, order and encodings
 * follow the renderers beside this file; change them together.
 */
import type { NamingProfile } from "../naming.js";
import {
  CAST_TYPE_NAMES,
  HASH_SCHEME_NAMES,
  MESSAGE_TYPE_NAMES,
  PROTOCOL_NAMES,
  REACTION_TYPE_NAMES,
  SIGNATURE_SCHEME_NAMES,
  STORAGE_UNIT_TYPE_NAMES,
  USER_DATA_TYPE_NAMES,
  profileNames,
} from "./enums.js";

export type JsonSchema = Record<string, unknown>;
/** A schema others refer to by its `$id`. */
export type NamedSchema = { $id: string } & JsonSchema;

export const ref = (id: string) => ({ $ref: `${id}#` });
export const integer = { type: "integer", minimum: 0 } as const;
export const hex = (what: string) => ({
  type: "string",
  pattern: "^(0x([0-9a-f]{2})+)?$",
  description: what,
});
export const base64 = (what: string) => ({ type: "string", contentEncoding: "base64", description: what });
const text = { type: "string" } as const;

/** An enum by its name, or by its number when this version has none for it (as the renderers do). */
export function enumSchema(names: readonly (string | undefined)[], description: string): JsonSchema {
  return {
    description,
    anyOf: [
      { type: "string", enum: names.filter((name): name is string => name !== undefined) },
      { type: "integer", minimum: 0, description: "A value this version has no name for." },
    ],
  };
}

export function object(
  id: string,
  required: readonly string[],
  properties: Record<string, unknown>,
  description?: string,
): NamedSchema {
  return {
    $id: id,
    ...(description === undefined ? {} : { description }),
    type: "object",
    required,
    additionalProperties: false,
    properties,
  };
}

/** Every message schema under `profile`; "Message" is the envelope (SPEC C. Message envelope). */
export function messageJsonSchemas(profile: NamingProfile): NamedSchema[] {
  const names = profileNames(profile);
  const protocol = enumSchema(PROTOCOL_NAMES, "The chain of the address.");
  const address = {
    type: "string",
    description: "0x-hex for PROTOCOL_ETHEREUM, base58 for PROTOCOL_SOLANA.",
  };
  const verificationAdd = object(
    "VerificationAddAddressBody",
    ["address", "claimSignature", "blockHash", "verificationType", "chainId", "protocol", "ethSignature"],
    {
      address,
      claimSignature: base64("The address's signature of the claim."),
      blockHash: address,
      verificationType: { ...integer, description: "0 for an EOA, 1 for a contract (ERC-1271)." },
      chainId: integer,
      protocol,
      ethSignature: base64("The same as claimSignature, under its pre-rename key."),
    },
  );
  return [
    object("CastId", ["fid", "hash"], { fid: integer, hash: hex("The cast's BLAKE3-20 hash.") }),
    object("Embed", [], { url: text, castId: ref("CastId") }, "A URL or a cast; exactly one is present."),
    object("CastAddBody", ["embedsDeprecated", "mentions", "text", "mentionsPositions", "embeds", "type"], {
      embedsDeprecated: { type: "array", items: text, deprecated: true },
      mentions: { type: "array", items: integer },
      parentCastId: ref("CastId"),
      parentUrl: text,
      text,
      mentionsPositions: { type: "array", items: integer },
      embeds: { type: "array", items: ref("Embed") },
      type: enumSchema(CAST_TYPE_NAMES, "The cast's length class."),
    }),
    object("CastRemoveBody", ["targetHash"], { targetHash: base64("The removed cast's hash.") }),
    object("ReactionBody", ["type"], {
      type: enumSchema(REACTION_TYPE_NAMES, "Like or recast."),
      targetCastId: ref("CastId"),
      targetUrl: text,
    }),
    verificationAdd,
    object("VerificationRemoveBody", ["address", "protocol"], { address, protocol }),
    object("UserDataBody", ["type", "value"], {
      type: enumSchema(USER_DATA_TYPE_NAMES, "Which profile field."),
      value: text,
    }),
    object("LinkBody", ["type"], {
      type: { type: "string", description: 'The link\'s kind, e.g. "follow".' },
      displayTimestamp: integer,
      targetFid: integer,
    }),
    userNameProofSchema(profile),
    object("FrameActionBody", ["url", "buttonIndex", "inputText", "state", "transactionId", "address"], {
      url: base64("The frame's URL, as bytes."),
      buttonIndex: integer,
      castId: ref("CastId"),
      inputText: base64("The text input, as bytes."),
      state: base64("The frame's state."),
      transactionId: base64("The transaction's id."),
      address: hex("The connected address."),
    }),
    object("LinkCompactStateBody", ["type", "targetFids"], {
      type: text,
      targetFids: { type: "array", items: integer },
    }),
    object("LendStorageBody", ["toFid", "numUnits", "unitType"], {
      toFid: integer,
      numUnits: integer,
      unitType: enumSchema(STORAGE_UNIT_TYPE_NAMES, "Which kind of storage unit."),
    }),
    object(
      "KeyAddBody",
      [
        "key",
        "keyType",
        "custodySignature",
        "deadline",
        "nonce",
        "metadata",
        "metadataType",
        "registrationTxHash",
        "scopes",
        "ttl",
      ],
      {
        key: hex("The added key."),
        keyType: integer,
        custodySignature: base64("The custody address's signature."),
        deadline: integer,
        nonce: integer,
        metadata: base64("The key's metadata."),
        metadataType: integer,
        registrationTxHash: base64("The registering transaction."),
        scopes: { type: "array", items: integer },
        ttl: integer,
      },
    ),
    object("KeyRemoveBody", ["key", "signature", "signatureType", "deadline", "nonce"], {
      key: hex("The removed key."),
      signature: base64("The remover's signature."),
      signatureType: integer,
      deadline: integer,
      nonce: integer,
    }),
    object(
      "MessageData",
      ["type", "fid", "timestamp", "network"],
      {
        type: enumSchema(MESSAGE_TYPE_NAMES, "The message type; it says which body is present."),
        fid: integer,
        timestamp: { ...integer, description: "Seconds since the protocol epoch (2021-01-01 UTC)." },
        network: enumSchema(names.network, "The network the message is for."),
        castAddBody: ref("CastAddBody"),
        castRemoveBody: ref("CastRemoveBody"),
        reactionBody: ref("ReactionBody"),
        verificationAddAddressBody: ref("VerificationAddAddressBody"),
        verificationRemoveBody: ref("VerificationRemoveBody"),
        userDataBody: ref("UserDataBody"),
        linkBody: ref("LinkBody"),
        usernameProofBody: ref("UserNameProof"),
        frameActionBody: ref("FrameActionBody"),
        linkCompactStateBody: ref("LinkCompactStateBody"),
        lendStorageBody: ref("LendStorageBody"),
        keyAddBody: ref("KeyAddBody"),
        keyRemoveBody: ref("KeyRemoveBody"),
        verificationAddEthAddressBody: {
          ...ref("VerificationAddAddressBody"),
          description: "The same object as verificationAddAddressBody, under its pre-rename key.",
        },
      },
      "What the signer signed: the type, author, time, network and one body.",
    ),
    object(
      "Message",
      ["hash", "hashScheme", "signature", "signatureScheme", "signer"],
      {
        data: ref("MessageData"),
        hash: hex("BLAKE3-20 of the data's bytes."),
        hashScheme: enumSchema(HASH_SCHEME_NAMES, "How hash was made."),
        signature: base64("The signer's signature of hash."),
        signatureScheme: enumSchema(SIGNATURE_SCHEME_NAMES, "How signature was made."),
        signer: hex("The signing key."),
        dataBytes: base64("The data's bytes, when the message was signed over bytes other than its data."),
      },
      "SPEC C. Message envelope.",
    ),
  ];
}

/** A username proof (SPEC C. Username proof), as renderUserNameProof.ts writes it. */
export function userNameProofSchema(profile: NamingProfile): NamedSchema {
  return object(
    "UserNameProof",
    ["timestamp", "name", "owner", "signature", "fid", "type"],
    {
      timestamp: { ...integer, description: "Unix seconds." },
      name: text,
      owner: hex("The name's owner address."),
      signature: base64("The registry's or the owner's signature of the proof."),
      fid: integer,
      type: enumSchema(profileNames(profile).userNameType, "Which name service the name is of."),
    },
    "SPEC C. Username proof.",
  );
}
