// A secret's value and the forms a name can carry it in without showing it: base64 (standard and URL-safe, padding
// dropped) and hex (lower and upper case) of its UTF-8 bytes. Pure: TextEncoder is a global of Node and of Temporal's
// workflow sandbox alike.
import { MIN_SECRET_LENGTH } from './secrets.js';

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const group = (a << 16) | (b << 8) | c;
    const chars = [18, 12, 6, 0].map((shift) => base64Alphabet[(group >> shift) & 63]);
    // Only the characters the bytes present fill: 1 byte gives 2, 2 give 3, 3 give 4 (no padding).
    out += chars.slice(0, Math.min(4, bytes.length - i + 1)).join('');
  }
  return out;
}

const toHex = (bytes: Uint8Array) => [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/** Each value of at least MIN_SECRET_LENGTH characters, with its base64 and hex forms; no duplicates. */
export function secretForms(values: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const value of values) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    const bytes = new TextEncoder().encode(value);
    const base64 = toBase64(bytes);
    const hex = toHex(bytes);
    for (const form of [value, base64, base64.replace(/\+/g, '-').replace(/\//g, '_'), hex, hex.toUpperCase()])
      forms.add(form);
  }
  return [...forms];
}
