// Entry point of the mocha run inside the real extension host (the e2e "payload" method:
// extensionTestsPath = out/test, built from this file by scripts/build.mjs). VS Code calls run().
//
// build.mjs bundles only this file, so every suite is imported statically here. A suite module
// exports a function that declares its suites with mocha's TDD globals (suite/test/suiteSetup…);
// run() installs those globals first and then calls the functions — top-level suite() calls in the
// imported modules would run before mocha exists. To add a suite: write test/e2e/host/x.hostTest.ts
// exporting `registerXTests()` and add it to `suites` below.
import { registerActivationTests } from './activation.hostTest';
import { registerFsEditorTests } from './fsEditor.hostTest';
import { registerEditorQueriesTests } from './editorQueries.hostTest';

const suites: ReadonlyArray<() => void> = [registerActivationTests, registerFsEditorTests, registerEditorQueriesTests];

// mocha is `external` in the bundle and resolved from the repo's node_modules at run time.
const Mocha = require('mocha') as typeof import('mocha');

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', timeout: 60_000, color: false, reporter: 'spec' });
  // Installs suite/test/setup… as globals, as mocha does for each file it loads itself.
  mocha.suite.emit('pre-require', globalThis, 'tandem-host-tests', mocha);
  for (const register of suites) register();
  return new Promise((resolve, reject) => {
    try {
      mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} extension host test(s) failed`)) : resolve()));
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
