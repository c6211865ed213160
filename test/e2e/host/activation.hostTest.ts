// Runs inside the real extension host: the installed-from-source extension is present, activates
// without throwing, and registers every command package.json contributes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMAND_IDS } from '../../../src/vscode/settings/contributions';

const extensionId = 'tandem.tandem-acp';

/** Every command package.json contributes (generated from it: a new one is checked without an edit here). */
const commands: readonly string[] = COMMAND_IDS;

export function registerActivationTests(): void {
  suite('activation', () => {
    test('the extension is present and activates', async () => {
      const ext = vscode.extensions.getExtension(extensionId);
      assert.ok(
        ext,
        `${extensionId} is not installed; known: ${vscode.extensions.all
          .map((e) => e.id)
          .filter((id) => !id.startsWith('vscode.'))
          .join(', ')}`,
      );
      await ext.activate();
      assert.equal(ext.isActive, true);
    });

    test('its commands are registered', async () => {
      await vscode.extensions.getExtension(extensionId)?.activate();
      const registered = new Set(await vscode.commands.getCommands(true));
      const missing = commands.filter((c) => !registered.has(c));
      assert.deepEqual(missing, [], `commands not registered: ${missing.join(', ')}`);
    });

    test('every contributed command is registered', async () => {
      const ext = vscode.extensions.getExtension(extensionId);
      assert.ok(ext);
      await ext.activate();
      const contributed = ((ext.packageJSON as { contributes?: { commands?: Array<{ command: string }> } }).contributes?.commands ?? []).map((c) => c.command);
      assert.ok(contributed.length >= commands.length, 'package.json contributes the commands');
      const registered = new Set(await vscode.commands.getCommands(true));
      assert.deepEqual(
        contributed.filter((c) => !registered.has(c)),
        [],
      );
    });
  });
}
