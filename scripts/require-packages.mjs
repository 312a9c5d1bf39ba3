// `npm test` runs this first: the browser tests need Debian's Chromium and the cluster test
// Debian's nginx, and finding out after the typecheck, the lint and jest would waste minutes.
import { existsSync } from 'node:fs';

const needed = [
  ['chromium', process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'],
  ['nginx', '/usr/sbin/nginx'],
];
const missing = needed.filter(([, file]) => !existsSync(file)).map(([name]) => name);
if (missing.length) {
  console.error(`The tests need ${missing.join(' and ')} (Debian's packages). Install with:
  apt-get update && apt-get install -y ${missing.join(' ')}`);
  process.exit(1);
}
