/** Bitcoin-alphabet base58, as Solana uses for addresses and block hashes. */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

export function bytesToBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // Base-58 digits, least significant first; log(256)/log(58) < 1.37 bounds the length.
  const digits = new Uint8Array(Math.ceil((bytes.length - zeros) * 1.37) + 1);
  let length = 0;
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    for (let j = 0; j < length; j++) {
      carry += digits[j]! << 8;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits[length++] = carry % 58;
      carry = (carry / 58) | 0;
    }
  }
  let out = "1".repeat(zeros);
  for (let i = length - 1; i >= 0; i--) out += ALPHABET[digits[i]!];
  return out;
}

/** Undefined for strings with characters outside the alphabet. */
export function base58ToBytes(text: string): Uint8Array | undefined {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49) zeros++;
  const bytes = new Uint8Array(Math.ceil((text.length - zeros) * 0.74) + 1);
  let length = 0;
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? INDEX[code]! : -1;
    if (value < 0) return undefined;
    let carry = value;
    for (let j = 0; j < length; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes[length++] = carry & 0xff;
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + length);
  for (let i = 0; i < length; i++) out[zeros + i] = bytes[length - 1 - i]!;
  return out;
}
