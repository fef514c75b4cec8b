import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clientAddressKey } from "../../src/http/clientAddress.js";

describe("clientAddressKey", () => {
  it("keys an IPv4 client by its address", () => {
    assert.equal(clientAddressKey("203.0.113.7"), "203.0.113.7");
  });

  it("keys an IPv4-mapped IPv6 address as the IPv4 address", () => {
    assert.equal(clientAddressKey("::ffff:203.0.113.7"), "203.0.113.7");
  });

  it("keys every address of one IPv6 /64 alike, whatever its spelling", () => {
    const keys = ["2001:db8:1:2::1", "2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:DB8:1:2:a::b%eth0"].map(
      clientAddressKey,
    );
    assert.deepEqual(new Set(keys), new Set(["2001:db8:1:2::/64"]));
  });

  it("keys neighbouring IPv6 /64s apart", () => {
    assert.notEqual(clientAddressKey("2001:db8:1:2::1"), clientAddressKey("2001:db8:1:3::1"));
  });

  it("keys addresses with a leading :: by their /64", () => {
    assert.equal(clientAddressKey("::1"), "0:0:0:0::/64");
    assert.equal(clientAddressKey("::2:1"), "0:0:0:0::/64");
  });
});
