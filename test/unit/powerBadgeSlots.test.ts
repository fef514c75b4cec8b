/** Power-badge slots (src/clientapi/powerBadgeSlots.ts): the weekly recalculation runs at Tuesday 12:00:00 UTC. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lastSlot, nextSlot } from "../../src/clientapi/powerBadgeSlots.js";

const at = (iso: string) => Date.parse(iso) / 1000;

describe("power-badge slots", () => {
  it("are Tuesdays at 12:00:00 UTC", () => {
    assert.equal(lastSlot(at("2024-06-04T12:00:00Z")), at("2024-06-04T12:00:00Z"));
    assert.equal(lastSlot(at("2024-06-04T11:59:59Z")), at("2024-05-28T12:00:00Z"));
    assert.equal(lastSlot(at("2024-06-10T23:59:59Z")), at("2024-06-04T12:00:00Z"));
    assert.equal(nextSlot(at("2024-06-04T12:00:00Z")), at("2024-06-11T12:00:00Z"));
    assert.equal(nextSlot(at("2024-06-01T00:00:00Z")), at("2024-06-04T12:00:00Z"));
    assert.equal(lastSlot(at("1970-01-06T12:00:00Z")), at("1970-01-06T12:00:00Z"));
  });

  it("change one second after a slot's start, not before", () => {
    const slot = at("2025-01-07T12:00:00Z");
    assert.equal(lastSlot(slot - 1), slot - 7 * 86_400);
    assert.equal(lastSlot(slot), slot);
    assert.equal(lastSlot(slot + 1), slot);
    assert.equal(nextSlot(slot - 1), slot);
    assert.equal(nextSlot(slot), slot + 7 * 86_400);
  });

  it("hold before the first slot after the Unix epoch and across years", () => {
    assert.equal(lastSlot(0), at("1969-12-30T12:00:00Z"));
    assert.equal(nextSlot(0), at("1970-01-06T12:00:00Z"));
    assert.equal(lastSlot(at("2025-01-01T00:00:00Z")), at("2024-12-31T12:00:00Z"));
    assert.equal(lastSlot(at("2024-02-29T12:00:00Z")), at("2024-02-27T12:00:00Z"));
  });

  it("fall on a Tuesday at noon for every day of a year", () => {
    for (let day = 0; day < 366; day++) {
      const slot = new Date(lastSlot(at("2024-01-01T00:00:00Z") + day * 86_400) * 1000);
      assert.equal(slot.getUTCDay(), 2, slot.toISOString());
      assert.equal(slot.toISOString().slice(11), "12:00:00.000Z");
    }
  });
});
