// `npm test` runs this first: the browser tests need Debian's Chromium, and finding out after
// the typecheck, the lint and jest would waste minutes.
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`The browser tests need Chromium at ${chromium}. Install it with:
  apt-get update && apt-get install -y chromium`);
  process.exit(1);
}
