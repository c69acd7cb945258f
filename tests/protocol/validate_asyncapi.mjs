// Validates protocol/asyncapi.yaml with @asyncapi/parser, the parser and Spectral ruleset that
// `asyncapi validate` (@asyncapi/cli) runs: the document against the official AsyncAPI schema,
// every $ref (into the JSON Schemas of protocol/schemas/) resolved and each payload schema
// parsed as JSON Schema draft 2020-12, and the governance rules. Any error or warning fails.
// Usage: node tests/protocol/validate_asyncapi.mjs protocol/asyncapi.yaml
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(resolve(process.env.SPARTS_WEB_DIR ?? 'web', 'package.json'));
const { Parser, DiagnosticSeverity } = require('@asyncapi/parser');

const file = resolve(process.argv[2] ?? 'protocol/asyncapi.yaml');
const parser = new Parser();
const { document, diagnostics } = await parser.parse(readFileSync(file, 'utf8'), { source: file });
const names = ['error', 'warning', 'information', 'hint'];
let failed = false;
for (const d of diagnostics) {
  const line = d.range ? d.range.start.line + 1 : '?';
  console.log(`${names[d.severity]}: ${d.code}: ${d.message} at ${d.path.join('/')} (line ${line})`);
  if (d.severity <= DiagnosticSeverity.Warning) failed = true;
}
if (!document) failed = true;
if (document) {
  console.log(`${file}: AsyncAPI ${document.version()}, ${document.allMessages().length} messages, ` +
              `${document.operations().length} operations`);
}
console.log(failed ? 'INVALID' : 'valid');
process.exit(failed ? 1 : 0);
