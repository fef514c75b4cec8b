/**
 * Generated avatars: a small SVG per fid, the same for a fid on every stack and every run (the
 * pattern and colour come from a hash of the fid), so that people have a face with no network. The
 * demo world's profiles point at them, and the pages show one for every fid without a picture.
 */
import { createHash } from "node:crypto";

export const avatarPath = (fid: number): string => `/avatars/${fid}.svg`;

/** Cells per side; the left half is mirrored, so a face-like symmetric pattern. */
const GRID = 5;
const CELL = 8;
const MARGIN = 4;

export function avatarSvg(fid: number): string {
  const digest = createHash("sha256").update(`castnet avatar ${fid}`).digest();
  const hue = digest.readUInt16BE(0) % 360;
  const fg = `hsl(${hue} 58% 46%)`;
  const bg = `hsl(${hue} 60% 92%)`;
  const cells: string[] = [];
  const half = Math.ceil(GRID / 2);
  for (let row = 0; row < GRID; row++)
    for (let col = 0; col < half; col++) {
      // One bit of the digest per cell of the left half, from byte 2 on.
      const bit = row * half + col;
      if (((digest[2 + (bit >> 3)]! >> (bit & 7)) & 1) === 0) continue;
      for (const x of new Set([col, GRID - 1 - col]))
        cells.push(
          `<rect x="${MARGIN + x * CELL}" y="${MARGIN + row * CELL}" width="${CELL}" height="${CELL}"/>`,
        );
    }
  const size = GRID * CELL + 2 * MARGIN;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}">` +
    `<rect width="${size}" height="${size}" fill="${bg}"/><g fill="${fg}">${cells.join("")}</g></svg>`
  );
}
