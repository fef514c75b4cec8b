/**
 * The protocol's stateless body rules (src/protocol/validation/): what each refuses, with the
 * reference's error code and sentence, and what it lets through. Whole messages against the
 * reference library are in test/protocol/validation.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HubError } from "../../src/protocol/errors.js";
import {
  CastAddBody,
  CastType,
  LinkBody,
  LinkCompactStateBody,
  ReactionBody,
  ReactionType,
  UserDataType,
} from "../../src/protocol/generated/message.js";
import { validateCastAddBody } from "../../src/protocol/validation/cast.js";
import { fidProblem, validateCastId, validateUrl } from "../../src/protocol/validation/common.js";
import { validateEnsName, validateFname } from "../../src/protocol/validation/names.js";
import {
  validateLinkBody,
  validateLinkCompactStateBody,
  validateReactionBody,
} from "../../src/protocol/validation/reactionLink.js";
import { validateUserDataBody } from "../../src/protocol/validation/userData.js";

/** The refusal as `errCode: sentence`, or "ok". */
const verdict = (error: HubError | undefined) =>
  error === undefined ? "ok" : `${error.errCode}: ${error.message}`;
const invalid = (sentence: string) => `bad_request.validation_failure: ${sentence}`;
const hash20 = new Uint8Array(20).fill(1);
/** After 2023-05-03, when string embeds stopped being accepted (protocol seconds). */
const NOW = 100_000_000;

const cast = (fields: Partial<CastAddBody>) =>
  verdict(validateCastAddBody(CastAddBody.fromPartial({ text: "hello", ...fields }), NOW));

describe("cast bodies", () => {
  it("limit text by cast type: 320 bytes, long casts 321 to 1024, 10k casts 1025 to 10,000", () => {
    assert.equal(cast({ text: "x".repeat(320) }), "ok");
    assert.equal(cast({ text: "é".repeat(161) }), invalid("text > 320 bytes"));
    assert.equal(
      cast({ type: CastType.LONG_CAST, text: "x".repeat(320) }),
      invalid("text too short for long cast"),
    );
    assert.equal(cast({ type: CastType.LONG_CAST, text: "x".repeat(1024) }), "ok");
    assert.equal(
      cast({ type: CastType.LONG_CAST, text: "x".repeat(1025) }),
      invalid("text > 1024 bytes for long cast"),
    );
    assert.equal(
      cast({ type: CastType.TEN_K_CAST, text: "x".repeat(1024) }),
      invalid("text too short for 10k cast"),
    );
    assert.equal(
      cast({ type: CastType.TEN_K_CAST, text: "x".repeat(10_001) }),
      invalid("text > 10,000 bytes for 10k cast"),
    );
    assert.equal(cast({ type: 7 as CastType }), invalid("invalid cast type"));
  });

  it("refuses counts and combinations before looking at each element", () => {
    const url = (u: string) => ({ url: u });
    assert.equal(cast({ embeds: Array(5).fill(url("not checked")) }), invalid("embeds > 4"));
    assert.equal(cast({ embedsDeprecated: ["https://x"] }), invalid("string embeds have been deprecated"));
    assert.equal(
      cast({ mentions: Array(11).fill(1), mentionsPositions: Array(11).fill(0) }),
      invalid("mentions > 10"),
    );
    assert.equal(
      cast({ mentions: [1], mentionsPositions: [] }),
      invalid("mentions and mentionsPositions must match"),
    );
    assert.equal(
      cast({ parentUrl: "https://x", parentCastId: { fid: 1, hash: hash20 } }),
      invalid("cannot use both parentUrl and parentCastId"),
    );
    assert.equal(cast({ text: "" }), invalid("cast is empty"));
  });

  it("checks each embed, mention and parent", () => {
    assert.equal(
      cast({ embeds: [{ url: "https://x", castId: { fid: 1, hash: hash20 } }] }),
      invalid("cannot use both url and castId"),
    );
    assert.equal(cast({ embeds: [{}] }), invalid("embed must have either url or castId"));
    assert.equal(cast({ embeds: [{ url: "x".repeat(257) }] }), "bad_request.invalid_param: url > 256 bytes");
    assert.equal(
      cast({ embeds: [{ castId: { fid: 0, hash: new Uint8Array() } }] }),
      invalid("fid is missing, hash is missing"),
    );
    assert.equal(
      cast({ mentions: [3], mentionsPositions: [6] }),
      invalid("mentionsPositions must be a position in text"),
    );
    assert.equal(
      cast({ mentions: [3, 4], mentionsPositions: [2, 1] }),
      invalid("mentionsPositions must be sorted in ascending order"),
    );
    assert.equal(cast({ mentions: [3, 4], mentionsPositions: [2, 2] }), "ok");
    assert.equal(cast({ text: "", mentions: [3], mentionsPositions: [0] }), "ok");
    assert.equal(
      cast({ parentCastId: { fid: 1, hash: new Uint8Array(19) } }),
      invalid("hash must be 20 bytes"),
    );
    assert.equal(cast({ parentUrl: "" }), "bad_request.invalid_param: url < 1 byte");
  });
});

describe("common rules", () => {
  it("name what is wrong with a fid, a cast id and a url", () => {
    assert.deepEqual([0, -1, 1.5, 1].map(fidProblem), [
      "fid is missing",
      "fid must be positive",
      "fid must be an integer",
      undefined,
    ]);
    assert.equal(verdict(validateCastId({ fid: 1, hash: hash20 })), "ok");
    assert.equal(
      verdict(validateCastId({ fid: -1, hash: new Uint8Array(3) })),
      invalid("fid must be positive, hash must be 20 bytes"),
    );
    assert.equal(verdict(validateUrl("x".repeat(256))), "ok");
    assert.equal(verdict(validateUrl("é".repeat(129))), "bad_request.invalid_param: url > 256 bytes");
  });
});

describe("reactions and links", () => {
  const reaction = (fields: Partial<ReactionBody>) =>
    verdict(validateReactionBody(ReactionBody.fromPartial(fields)));
  const link = (fields: Partial<LinkBody>) => verdict(validateLinkBody(LinkBody.fromPartial(fields)));

  it("refuses reactions of no known type or without exactly one target", () => {
    assert.equal(reaction({ type: ReactionType.LIKE, targetUrl: "https://x" }), "ok");
    assert.equal(reaction({ type: ReactionType.RECAST, targetCastId: { fid: 2, hash: hash20 } }), "ok");
    assert.equal(
      reaction({ type: 9 as ReactionType, targetUrl: "https://x" }),
      invalid("invalid reaction type"),
    );
    assert.equal(
      reaction({ type: ReactionType.NONE, targetUrl: "https://x" }),
      invalid("invalid reaction type"),
    );
    // A NONE reaction without a target gets the library's sentence first.
    assert.equal(reaction({ type: ReactionType.NONE }), invalid("target is missing"));
    assert.equal(
      reaction({ type: ReactionType.LIKE, targetUrl: "https://x", targetCastId: { fid: 2, hash: hash20 } }),
      invalid("cannot use both targetUrl and targetCastId"),
    );
  });

  it("takes link types of 1 to 8 bytes without NUL, and a target fid", () => {
    assert.equal(link({ type: "follow", targetFid: 2 }), "ok");
    assert.equal(link({ type: "", targetFid: 2 }), invalid("type must be between 1-8 bytes"));
    assert.equal(link({ type: "followers", targetFid: 2 }), invalid("type must be between 1-8 bytes"));
    assert.equal(link({ type: "f\0", targetFid: 2 }), invalid("type must not contain NUL characters"));
    assert.equal(link({ type: "follow" }), invalid("target is missing"));
    assert.equal(
      verdict(
        validateLinkCompactStateBody(
          LinkCompactStateBody.fromPartial({ type: "follow", targetFids: [1, 0] }),
        ),
      ),
      invalid("fid is missing"),
    );
  });
});

describe("names and user data", () => {
  const userData = (type: UserDataType, value: string) => verdict(validateUserDataBody({ type, value }));

  it("takes fnames of 1 to 16 of a-z, 0-9 and -, not starting with -", () => {
    assert.equal(verdict(validateFname("alice-1")), "ok");
    assert.equal(verdict(validateFname("")), invalid("fname is missing"));
    assert.equal(
      verdict(validateFname("a".repeat(17))),
      invalid(`fname "${"a".repeat(17)}" > 16 characters`),
    );
    assert.equal(
      verdict(validateFname("-alice")),
      invalid('fname "-alice" doesn\'t match /^[a-z0-9][a-z0-9-]{0,15}$/'),
    );
  });

  it("takes ENS names on .eth and basenames on .base.eth", () => {
    assert.equal(verdict(validateEnsName("alice.eth")), "ok");
    assert.equal(verdict(validateEnsName("alice.base.eth")), "ok");
    assert.equal(
      verdict(validateEnsName("alice.com")),
      invalid('ensName "alice.com" doesn\'t end with .eth'),
    );
    assert.equal(verdict(validateEnsName("a.b.eth")), invalid('ensName "a.b.eth" unsupported subdomain'));
    assert.equal(
      verdict(validateEnsName(`${"a".repeat(17)}.eth`)),
      invalid(`ensName "${"a".repeat(17)}.eth" > 20 characters`),
    );
  });

  it("limits each user data type by its own rule", () => {
    assert.equal(userData(UserDataType.DISPLAY, "x".repeat(32)), "ok");
    assert.equal(userData(UserDataType.DISPLAY, "x".repeat(33)), invalid("display value > 32"));
    assert.equal(userData(UserDataType.USERNAME, "alice.eth"), "ok");
    assert.equal(
      userData(UserDataType.USERNAME, "Alice"),
      invalid('fname "Alice" doesn\'t match /^[a-z0-9][a-z0-9-]{0,15}$/'),
    );
    assert.equal(userData(UserDataType.LOCATION, "geo:51.50,-0.12"), "ok");
    assert.equal(
      userData(UserDataType.LOCATION, "geo:91.00,0.00"),
      invalid("Latitude value outside valid range"),
    );
    assert.equal(userData(UserDataType.LOCATION, "London"), invalid("Invalid location string"));
    assert.equal(
      userData(UserDataType.TWITTER, "Bob"),
      invalid('username "Bob" doesn\'t match /^[a-z0-9_]{0,15}$/'),
    );
    assert.equal(userData(UserDataType.NONE, ""), invalid("invalid user data type"));
  });
});
