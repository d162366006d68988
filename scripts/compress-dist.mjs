// Writes .br and .gz beside every compressible file of a build, so the server sends them
// precompressed (Content-Encoding negotiated per request) without compressing at run time.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = path.resolve(process.argv[2] ?? 'dist');
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;
let files = 0;
let raw = 0;
let brotli = 0;
for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name) || entry.name.endsWith('.map')) continue;
  const file = path.join(entry.parentPath, entry.name);
  const data = fs.readFileSync(file);
  if (data.length < 1024) continue;
  const br = zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
  files += 1;
  raw += data.length;
  brotli += br.length;
}
console.log(`precompressed ${files} files: ${(raw / 1e3).toFixed(0)} kB → ${(brotli / 1e3).toFixed(0)} kB brotli`);
