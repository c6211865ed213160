// Mocha suites from test/e2e/host run inside the real extension host of code-server (the payload
// method), against the repo's build: their pass/fail is this test's pass/fail.
import assert from 'node:assert/strict';
import { scenario, useE2e } from './harness/e2e';
import { runHostTests } from './harness/hostTests';

const e2e = useE2e();

scenario(
  e2e,
  'extension host test suites pass',
  async (s) => {
    const workspace = s.workspace({ files: { 'README.md': '# Host tests\n' } });
    const result = await runHostTests(e2e.browser, e2e.server, workspace.dir);
    console.log(result.log);
    assert.equal(result.exitCode, 0, `extension host tests failed (exit ${result.exitCode}); workbench logs in ${result.logsDir}\n${result.log}`);
    // A run that loaded no suite at all must not pass silently.
    assert.match(result.log, /passing/, 'mocha reported its results');
  },
  240_000,
);
