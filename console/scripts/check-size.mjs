// Fails the build when the JavaScript the first screen loads exceeds
// 250 KB gzip: the scripts index.html references, and their static imports.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const limit = 250 * 1024;
const dist = new URL('../dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const seen = new Set();
const queue = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/console\/([^"]+\.js)"/g)].map((m) => m[1]);
let total = 0;
while (queue.length) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  seen.add(file);
  const code = readFileSync(join(dist, file));
  total += gzipSync(code, { level: 9 }).length;
  for (const m of code.toString('utf8').matchAll(/from\s*"\.\/([^"]+\.js)"/g)) queue.push(`assets/${m[1]}`);
}
const kb = (total / 1024).toFixed(1);
if (total > limit) {
  console.error(`check-size: the first screen loads ${kb} KB of gzipped JavaScript (${[...seen].join(', ')}); the limit is 250 KB`);
  process.exit(1);
}
console.log(`check-size: first-screen JavaScript ${kb} KB gzip (limit 250 KB) in ${seen.size} file(s)`);
