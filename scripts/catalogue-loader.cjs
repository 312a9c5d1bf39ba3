/**
 * Compiles a message catalogue (`src/i18n/locales/<tag>.json`: message id → ICU message)
 * into Lingui's compiled form when it is built, so the browser carries no ICU parser. A
 * webpack loader, and with `process` a jest transformer: the tests run what the build ships.
 * A message that does not parse fails the build.
 */
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { compileMessage } = require('@lingui/message-utils/compileMessage');

const compile = (source) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(JSON.parse(source)).map(([id, message]) => [id, compileMessage(message)]),
    ),
  );

module.exports = (source) => `export default ${compile(source)};`;
// jest reads a .json module's transformed text as JSON, and caches it until the catalogue or
// this compiler changes.
module.exports.process = (source) => ({ code: compile(source) });
module.exports.getCacheKey = (source) =>
  createHash('sha256').update(source).update(readFileSync(__filename)).digest('hex');
