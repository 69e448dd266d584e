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

/** Shortest shifted form looked for: shorter ones would turn up by chance in any long base64 text. */
export const MIN_SHIFTED_FORM = 8;

/**
 * The base64 of a value as it shows inside a longer base64 text, at each of the three byte alignments it can start
 * at: the characters its own bytes alone decide (those shared with the bytes before or after are left out), in the
 * standard and URL-safe alphabets. A secret embedded in a base64 blob after 1 or 2 other bytes has none of the
 * aligned forms secretForms gives; it has one of these. Forms shorter than MIN_SHIFTED_FORM are left out.
 */
export function shiftedBase64Forms(values: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const value of values) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    const bytes = new TextEncoder().encode(value);
    for (const offset of [0, 1, 2]) {
      const padded = new Uint8Array(offset + bytes.length);
      padded.set(bytes, offset);
      // Characters holding bits of the bytes before (2 for one byte, 3 for two), and of those after.
      const first = [0, 2, 3][offset] ?? 0;
      const last = Math.floor((8 * padded.length) / 6);
      const form = toBase64(padded).slice(first, last);
      if (form.length < MIN_SHIFTED_FORM) continue;
      forms.add(form);
      forms.add(form.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...forms];
}

/** secretForms and the shifted base64 forms: every form the review looks for in a change's paths and content. */
export function encodedSecretForms(values: readonly string[]): string[] {
  return [...new Set([...secretForms(values), ...shiftedBase64Forms(values)])];
}
