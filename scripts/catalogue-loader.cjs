/**
 * Compiles a message catalogue (`src/i18n/locales/<tag>.json`: message id → ICU message)
 * into Lingui's compiled form when it is built, so the browser carries no ICU parser. A
 * webpack loader, and with `process` a jest transformer: the tests run what the build ships.
 * A message that does not parse fails the build.
 *
 * Imported with `?first`, it keeps only what a page shows before any screen's chunk has
 * loaded (the frame, the home page, the session's toasts); with `?screens`, the rest, which
 * loads with the first screen. The home page then carries a tenth of the catalogue.
 */
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { compileMessageOrThrow } = require('@lingui/message-utils/compileMessage');

const FIRST = /^(shell|home|toast)\./;

const compile = (source, part) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(JSON.parse(source))
        .filter(([id]) => !part || FIRST.test(id) === (part === 'first'))
        .map(([id, message]) => [id, compileMessageOrThrow(message)]),
    ),
  );

module.exports = function catalogueLoader(source) {
  const part = this.resourceQuery.slice(1);
  if (part !== 'first' && part !== 'screens')
    throw new Error('Import a catalogue with ?first or ?screens');
  return `export default ${compile(source, part)};`;
};
// jest reads a .json module's transformed text as JSON, and caches it until the catalogue or
// this compiler changes.
module.exports.process = (source) => ({ code: compile(source) });
module.exports.getCacheKey = (source) =>
  createHash('sha256').update(source).update(readFileSync(__filename)).digest('hex');
