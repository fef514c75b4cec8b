/**
 * The input rules of signed key requests (src/clientapi/keyRequests/input.ts) and their limiter
 * (keyRequestLimits.ts): each refusal is a 400 (or a 429) with the sentence the app's developer reads.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ClientApiError } from "../../src/clientapi/errors.js";
import {
  checkKey,
  checkToken,
  futureDeadline,
  isRedirectUrl,
  parseFid,
  parseSignature,
} from "../../src/clientapi/keyRequests/input.js";
import { keyRequestLimiter } from "../../src/clientapi/keyRequests/limits.js";

/** The refusal `run` throws, as the client API answers it. */
function refusal(run: () => unknown): { status: number; message: string; retryAfter?: number } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ClientApiError, String(error));
    const { statusCode: status, message, retryAfter } = error;
    return retryAfter === undefined ? { status, message } : { status, message, retryAfter };
  }
  assert.fail("no refusal");
}

const bad = (message: string) => ({ status: 400, message });

describe("signed key request input", () => {
  it("takes a key of 32 bytes written as 0x and 64 hex digits, in either case", () => {
    checkKey(`0x${"aB".repeat(32)}`);
    const sentence = bad("key must be a 32-byte Ed25519 public key written as 0x and 64 hex digits");
    for (const key of [
      `0x${"ab".repeat(31)}`,
      `0x${"ab".repeat(33)}`,
      "ab".repeat(32),
      `0x${"gg".repeat(32)}`,
      "",
    ])
      assert.deepEqual(
        refusal(() => checkKey(key)),
        sentence,
        key,
      );
  });

  it("takes a token of 0x and 2 to 128 hex digits", () => {
    checkToken("0xab");
    checkToken(`0x${"f".repeat(128)}`);
    for (const token of ["0x", "0xa", `0x${"f".repeat(129)}`, "abcd", "0xzz"])
      assert.deepEqual(
        refusal(() => checkToken(token)),
        bad("token must be 0x followed by hex digits"),
        token,
      );
  });

  it("reads a fid from a positive safe integer or a string of up to 16 digits", () => {
    assert.equal(parseFid(7, "requestFid"), 7);
    assert.equal(parseFid("42", "requestFid"), 42);
    assert.equal(parseFid("0000000000000009", "requestFid"), 9);
    for (const value of [0, -1, 1.5, 2 ** 53, "0", "-1", "1e3", "12345678901234567", " 1", ""])
      assert.deepEqual(
        refusal(() => parseFid(value, "sponsorship.sponsorFid")),
        bad("sponsorship.sponsorFid must be a positive integer fid"),
        String(value),
      );
  });

  it("takes a 64- or 65-byte signature and writes it in lower case", () => {
    assert.equal(parseSignature(`0x${"AB".repeat(65)}`, "signature"), `0x${"ab".repeat(65)}`);
    assert.equal(parseSignature(`0x${"cd".repeat(64)}`, "signature"), `0x${"cd".repeat(64)}`);
    for (const value of [
      `0x${"ab".repeat(63)}`,
      `0x${"ab".repeat(66)}`,
      "ab".repeat(65),
      `0x${"ab".repeat(64)}a`,
    ])
      assert.deepEqual(
        refusal(() => parseSignature(value, "signature")),
        bad("signature must be a 65-byte signature written as 0x and 130 hex digits"),
      );
  });

  it("takes a deadline in Unix seconds still ahead of now, and says when it looks like milliseconds", () => {
    const now = 1_750_000_000;
    assert.equal(futureDeadline(now + 1, "deadline", now), now + 1);
    assert.deepEqual(
      refusal(() => futureDeadline(now, "deadline", now)),
      bad("deadline 1750000000 has passed (2025-06-15T15:06:40.000Z)"),
    );
    assert.deepEqual(
      refusal(() => futureDeadline(now * 1000, "deadline", now)),
      bad("deadline 1750000000000 looks like milliseconds; send Unix seconds (1750000000)"),
    );
    for (const value of [-1, 1.5, Number.NaN])
      assert.deepEqual(
        refusal(() => futureDeadline(value, "deadline", now)),
        bad("deadline must be a non-negative integer of Unix seconds"),
      );
  });

  it("takes web pages and apps' own schemes as redirect URLs, not script, data or local documents", () => {
    for (const url of ["https://app.example/done?x=1", "http://127.0.0.1:3000/", "myapp://signed-in"])
      assert.equal(isRedirectUrl(url), true, url);
    for (const url of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<script>",
      "vbscript:x",
      "file:///etc/passwd",
      "blob:https://x/1",
      "about:blank",
      "view-source:https://x",
      "not a url",
      "",
    ])
      assert.equal(isRedirectUrl(url), false, url);
  });
});

describe("signed key request limits", () => {
  it("spends the client's allowance on arrival and the fid's only once the signature verified", () => {
    let now = 0;
    const limiter = keyRequestLimiter({ perFidPerHour: 2, perAddressPerHour: 3 }, () => now);
    // Unsigned junk naming fid 5 from three addresses: nothing of fid 5's allowance is spent.
    for (const ip of ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) limiter.admit(ip, 5);
    limiter.admit("10.0.0.4", 5)();
    limiter.admit("10.0.0.4", 5)();
    assert.deepEqual(
      refusal(() => limiter.admit("10.0.0.5", 5)),
      {
        status: 429,
        message: "too many signed key requests for fid 5; try again in 1800 s",
        retryAfter: 1800,
      },
    );
    limiter.admit("10.0.0.4", 6);
    assert.deepEqual(
      refusal(() => limiter.admit("10.0.0.4", 6)),
      {
        status: 429,
        message: "too many signed key requests from this address; try again in 1200 s",
        retryAfter: 1200,
      },
    );
    now += 1200 * 1000;
    limiter.admit("10.0.0.4", 6);
  });
});
