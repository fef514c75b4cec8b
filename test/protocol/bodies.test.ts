import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { BODIES } from "../../src/protocol/bodies/index.js";

test("the body table lists message.proto's MessageData bodies, in order, with their field numbers", () => {
  const proto = readFileSync(new URL("../../src/protocol/proto/message.proto", import.meta.url), "utf8");
  const oneof = /message MessageData \{[^}]*?oneof body \{([^}]*)\}/.exec(proto)![1]!;
  const declared = [...oneof.matchAll(/\w+ (\w+) = (\d+);/g)].map(([, name, number]) => [
    name!.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()),
    Number(number),
  ]);
  assert.deepEqual(
    BODIES.map((kind) => [kind.field, kind.fieldNumber]),
    declared,
  );
  const types = BODIES.flatMap((kind) => kind.types);
  assert.equal(new Set(types).size, types.length, "a message type carries one body");
});
