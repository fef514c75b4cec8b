import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { sendUnaryData, ServerUnaryCall } from "@grpc/grpc-js";
import { type GrpcContext, unary } from "../../../src/hub/api/grpc/call.js";
import type { BytesPage } from "../../../src/hub/api/grpc/wire.js";
import { PooledText, SlotPool, TEXT_HEAD } from "../../../src/storage/pooledText.js";
import { testLogger } from "../../support/stack.js";

const FRAMED = Uint8Array.from([0x0a, 0x02, 0x08, 0x01]);

function pooledPage(): { pool: SlotPool; page: BytesPage } {
  const pool = new SlotPool(1, 1024);
  const slot = pool.take()!;
  new Uint8Array(pool.shared.buffer, slot * pool.shared.slotBytes + TEXT_HEAD).set(FRAMED);
  return { pool, page: { framed: new PooledText(pool, slot, FRAMED.length), nextPageToken: undefined } };
}

const ctx = { logger: testLogger } as GrpcContext;
const call = { request: {} } as ServerUnaryCall<object, BytesPage>;

describe("a gRPC page answered from a slot of reader memory", () => {
  it("is serialised within the callback, after which its slot is free again", async () => {
    const { pool, page } = pooledPage();
    const sent = await new Promise<Buffer>((resolve, reject) => {
      const callback: sendUnaryData<BytesPage> = (error, answer) => {
        if (error) reject(error);
        else resolve(Buffer.from((answer!.framed as PooledText).framed("", "")));
      };
      unary(ctx, async () => page)(call, callback);
    });
    assert.deepEqual([...sent], [...FRAMED]);
    assert.equal(pool.take(), 0);
  });

  it("cannot be read once the callback has returned: a serialiser that came later would fail, not send another read's bytes", async () => {
    const { pool, page } = pooledPage();
    const answered = await new Promise<BytesPage>((resolve) =>
      unary(ctx, async () => page)(call, (_error, answer) => resolve(answer!)),
    );
    assert.equal(pool.take(), 0);
    assert.throws(() => (answered.framed as PooledText).framed("", ""), /read after its release/);
  });
});
