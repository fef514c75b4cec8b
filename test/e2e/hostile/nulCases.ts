/**
 * Writes whose strings hold NUL, each otherwise acceptable: NUL is a valid character in JSON and in
 * protobuf strings, so a part may store it (2xx) or refuse it (4xx), but not fail (PostgreSQL cannot
 * keep it in text).
 */
import * as core from "@farcaster/core";
import { privateKeyToAccount } from "viem/accounts";
import { toHexString } from "./fixtures.js";
import { RANDOM } from "./generator.js";
import type { Case } from "./judge.js";
import {
  MESSAGE_TYPE,
  OCTET,
  messageData,
  pbBytes,
  pbInt,
  pbText,
  signedMessage,
  type DataFields,
} from "./protobuf.js";
import type { Fixtures } from "./routes.js";

/** The client API's and the hub's requests, in the order the sweep sends them. */
export async function nulStringCases(fx: Fixtures): Promise<{ api: Case[]; hub: Case[] }> {
  const J = "application/json";
  const apiCases: Case[] = [
    {
      label: "a new channel whose name holds NUL",
      req: {
        method: "POST",
        path: "/v1/admin/channels",
        contentType: J,
        body: JSON.stringify({
          id: "nul-test",
          url: "https://example.com/nul",
          name: "nul\u0000name",
          imageUrl: "https://example.com/nul.png",
        }),
      },
      expect: "either",
    },
    {
      label: "a channel description holding NUL",
      req: {
        method: "PATCH",
        path: "/v1/admin/channels/welcome",
        contentType: J,
        body: JSON.stringify({ description: "nul\u0000description" }),
      },
      expect: "either",
    },
    {
      label: "a new action whose name holds NUL",
      req: {
        method: "POST",
        path: "/v1/admin/actions",
        contentType: J,
        body: JSON.stringify({
          ...fx.demoAction,
          name: "nul\u0000action",
          actionUrl: "https://example.com/nul-action",
        }),
      },
      expect: "either",
    },
  ];
  const bobCustody = privateKeyToAccount(fx.bob.custodyPrivateKey);
  const key = RANDOM.bytes(32);
  const deadline = Math.floor(Date.now() / 1000) + 3600;
  const signature = (
    await new core.ViemLocalEip712Signer(bobCustody).signKeyRequest({
      requestFid: BigInt(fx.bob.fid),
      key,
      deadline: BigInt(deadline),
    })
  )._unsafeUnwrap();
  apiCases.push({
    label: "a signed key request whose redirectUrl holds NUL",
    req: {
      method: "POST",
      path: "/v2/signed-key-request",
      contentType: J,
      body: JSON.stringify({
        key: toHexString(key),
        requestFid: fx.bob.fid,
        deadline,
        signature: toHexString(signature),
        redirectUrl: "https://example.com/\u0000",
      }),
    },
    expect: "either",
  });

  const seed = Buffer.from(fx.alice.signerPrivateKey.slice(2), "hex");
  const data = (fields: DataFields) => messageData(fx.alice.fid, fields);
  const hubCases: Case[] = [];
  for (const [label, fields] of [
    [
      "a link whose type holds NUL",
      {
        type: MESSAGE_TYPE.linkAdd,
        body: pbBytes(14, [...pbText(1, "f\u0000"), ...pbInt(3, fx.bob.fid)]),
      },
    ],
    [
      "a reaction to a url holding NUL",
      {
        type: MESSAGE_TYPE.reactionAdd,
        body: pbBytes(7, [...pbInt(1, 1), ...pbText(3, "https://example.com/\u0000")]),
      },
    ],
    [
      "a cast whose parent url holds NUL",
      { body: pbBytes(5, [...pbText(4, "x"), ...pbText(7, "https://example.com/\u0000")]) },
    ],
    ["a cast whose text holds NUL", { body: pbBytes(5, pbText(4, "nul\u0000text")) }],
    [
      "a display name holding NUL",
      {
        type: MESSAGE_TYPE.userDataAdd,
        body: pbBytes(12, [...pbInt(1, 2), ...pbText(2, "nul\u0000name")]),
      },
    ],
  ] as const) {
    hubCases.push({
      label,
      req: {
        method: "POST",
        path: "/v1/submitMessage",
        contentType: OCTET,
        body: await signedMessage(seed, data(fields)),
      },
      expect: "either",
    });
  }
  return { api: apiCases, hub: hubCases };
}

/** Alice's link to bob of a type that holds NUL (`type`), signed with her registered key. */
export function nulLinkMessage(fx: Fixtures, type: string): Promise<Uint8Array> {
  return signedMessage(
    Buffer.from(fx.alice.signerPrivateKey.slice(2), "hex"),
    messageData(fx.alice.fid, {
      type: MESSAGE_TYPE.linkAdd,
      body: pbBytes(14, [...pbText(1, type), ...pbInt(3, fx.bob.fid)]),
    }),
  );
}
