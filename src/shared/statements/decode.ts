/**
 * A statement's bytes as text. MetaTrader 5 writes its HTML report in UTF-16 LE with a byte-order mark
 * (UTF-8 in some builds); MetaTrader 4 writes Statement.htm in the Windows code page of the terminal,
 * sometimes naming it in a <meta charset>. The built-in TextDecoder (Node's full ICU) reads them all.
 */

const SNIFF_BYTES = 4096;

/** The text, or null when the bytes are not text at all (an image, an archive, random bytes). */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return decode('utf-16le', bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return decode('utf-16be', bytes.subarray(2));
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return decode('utf-8', bytes.subarray(3));
  }
  const bomless = utf16WithoutBom(bytes);
  if (bomless) return decode(bomless, bytes);
  // Bytes below 0x09 never appear in a text file (NUL, and the control codes before tab).
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (head.some((byte) => byte < 0x09)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: the code page the page declares, else Windows-1252 (MT4's default on a Western system).
    const declared = /charset\s*=\s*["']?([\w.:-]+)/i.exec(new TextDecoder('latin1').decode(head))?.[1];
    return decode(declared && isKnownEncoding(declared) ? declared : 'windows-1252', bytes);
  }
}

function decode(encoding: string, bytes: Uint8Array): string {
  return new TextDecoder(encoding).decode(bytes);
}

function isKnownEncoding(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/** UTF-16 saved without a byte-order mark: ASCII markup puts a zero byte in every other position. */
function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const length = Math.min(bytes.length, SNIFF_BYTES) & ~1;
  if (length < 16) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < length; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = length / 2;
  if (oddZeros > pairs * 0.9 && evenZeros < pairs * 0.1) return 'utf-16le';
  if (evenZeros > pairs * 0.9 && oddZeros < pairs * 0.1) return 'utf-16be';
  return null;
}
