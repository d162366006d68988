// @ts-check
// A minimal ustar writer and reader for backup archives (docs/operations.md "Backups"). Plain
// JavaScript: the server writes archives with it, and `npm run restore` reads them without a build.
import { Buffer } from 'node:buffer';

const BLOCK = 512;

/** @param {Buffer} header @param {number} offset @param {number} length @param {string} value */
function put(header, offset, length, value) {
  header.write(value, offset, Math.min(length, Buffer.byteLength(value)), 'utf8');
}

/** @param {number} value @param {number} length */
function octal(value, length) {
  return value.toString(8).padStart(length - 1, '0') + '\0';
}

/**
 * The header block of one entry. Names up to 100 bytes go in `name`, longer ones (to 255) are
 * split at a slash into `prefix` and `name`.
 * @param {{ name: string, size: number, type: 'file' | 'dir', mode: number, mtime?: number }} e
 */
export function tarHeader(e) {
  let name = e.name;
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`Name too long for tar: ${name}`);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
  }
  const h = Buffer.alloc(BLOCK);
  put(h, 0, 100, name);
  put(h, 100, 8, octal(e.mode & 0o7777, 8));
  put(h, 108, 8, octal(0, 8));
  put(h, 116, 8, octal(0, 8));
  put(h, 124, 12, octal(e.type === 'dir' ? 0 : e.size, 12));
  put(h, 136, 12, octal(Math.floor((e.mtime ?? Date.now()) / 1000), 12));
  put(h, 148, 8, '        ');
  put(h, 156, 1, e.type === 'dir' ? '5' : '0');
  put(h, 257, 6, 'ustar\0');
  put(h, 263, 2, '00');
  put(h, 345, 155, prefix);
  let sum = 0;
  for (const byte of h) sum += byte;
  put(h, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return h;
}

/** The zero bytes that pad an entry of `size` bytes to a whole block. */
export function tarPadding(/** @type {number} */ size) {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** Two zero blocks end an archive. */
export const TAR_END = Buffer.alloc(BLOCK * 2);

/** @param {Buffer} h @param {number} offset @param {number} length */
function text(h, offset, length) {
  const raw = h.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** @param {Buffer} h */
function checksumOk(h) {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (h[i] ?? 0);
  return parseInt(text(h, 148, 8).trim(), 8) === sum;
}

/**
 * @typedef {{ name: string, type: 'file' | 'dir' | 'other', mode: number, data: Buffer }} TarEntry
 */

/**
 * The entries of a tar stream, each read whole (files and directories; other kinds are yielded
 * as 'other' with their bytes). Rejects on a damaged header or an archive that ends early.
 * @param {AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer | Uint8Array>} source
 * @returns {AsyncGenerator<TarEntry>}
 */
export async function* readTar(source) {
  /** @type {Buffer[]} */
  let chunks = [];
  let buffered = 0;
  const iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  /** @param {number} n */
  const take = async (n) => {
    while (buffered < n) {
      const next = await iterator.next();
      if (next.done) return undefined;
      const chunk = Buffer.from(next.value);
      chunks.push(chunk);
      buffered += chunk.length;
    }
    // One chunk (a whole tar in memory, say) is cut, not copied.
    const all = chunks.length === 1 ? /** @type {Buffer} */ (chunks[0]) : Buffer.concat(chunks);
    const out = all.subarray(0, n);
    chunks = all.length > n ? [all.subarray(n)] : [];
    buffered -= n;
    return out;
  };
  for (;;) {
    const h = await take(BLOCK);
    if (!h) throw new Error('the archive ends before its end marker (truncated)');
    if (h.every((b) => b === 0)) return;
    if (!checksumOk(h)) throw new Error('a damaged entry header (checksum mismatch)');
    const prefix = text(h, 345, 155);
    const name = (prefix ? `${prefix}/` : '') + text(h, 0, 100);
    const size = parseInt(text(h, 124, 12).trim() || '0', 8);
    const flag = text(h, 156, 1);
    const mode = parseInt(text(h, 100, 8).trim() || '0', 8);
    const padded = size + ((BLOCK - (size % BLOCK)) % BLOCK);
    const body = padded > 0 ? await take(padded) : Buffer.alloc(0);
    if (!body) throw new Error(`the archive ends inside ${name} (truncated)`);
    const type = flag === '5' ? 'dir' : flag === '0' || flag === '' ? 'file' : 'other';
    yield { name, type, mode, data: Buffer.from(body.subarray(0, size)) };
  }
}
