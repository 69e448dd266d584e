// SHA-256 through @noble/hashes: pure JavaScript, so domain/ and the workflow sandbox can hash without node:crypto.
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text` (a lone surrogate encodes as U+FFFD, as in node:crypto). */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** The first 12 hex digits of the SHA-256 of `text`: a stable short id. */
export function shortHash(text: string): string {
  return sha256Hex(text).slice(0, 12);
}
