import { isIPv6 } from "node:net";

/**
 * The key per-client limits count under. An IPv4 client is its address. An IPv6 client is its /64:
 * one subscriber line or host usually gets a whole /64, so keying by the full address would let one
 * client take a fresh limit for every one of its 2^64 addresses. IPv4 addresses mapped into IPv6
 * (`::ffff:1.2.3.4`, as a dual-stack socket reports them) count as the IPv4 address.
 */
export function clientAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, as lowercase hex without leading zeros. */
function expandIPv6(ip: string): string[] {
  const address = ip.split("%")[0]!.toLowerCase();
  const [head, tail] = address.includes("::") ? address.split("::") : [address, undefined];
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const left = groups(head);
  const right = groups(tail);
  // A trailing embedded IPv4 address takes two groups.
  const last = right.at(-1) ?? left.at(-1);
  const v4 = last !== undefined && last.includes(".");
  const fill = 8 - left.length - right.length - (v4 ? 1 : 0);
  const all = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, fill)).fill("0"), ...right];
  return all.map((group) => (group.includes(".") ? group : (parseInt(group, 16) || 0).toString(16)));
}
