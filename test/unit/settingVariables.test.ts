// The one reading of `${…}` in settings values (agent headers, MCP servers) and the default bearer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addDefaultBearer, envVariable, expandVariables, hasAuthorization } from '../../src/util/settingVariables';

test('env:NAME and plain names go to the lookup; what it does not know stays as written', () => {
  const seen: string[] = [];
  const out = expandVariables('a ${env:HOME_DIR} b ${token} c ${input:pick} d ${unknown} e ${env:1BAD}', (name) => {
    seen.push(name);
    if (name === 'token') return 'T';
    return envVariable(name) === 'HOME_DIR' ? '/h' : undefined;
  });
  assert.equal(out, 'a /h b T c ${input:pick} d ${unknown} e ${env:1BAD}');
  assert.deepEqual(seen, ['env:HOME_DIR', 'token', 'unknown']);
  assert.equal(envVariable('env:X'), 'X');
  assert.equal(envVariable('token'), undefined);
});

test('the default bearer: added unless the credential was placed or an Authorization header (any case) is configured', () => {
  const plain: Record<string, string> = { 'X-Team': 't' };
  addDefaultBearer(plain, 'k', false);
  assert.equal(plain.Authorization, 'Bearer k');
  const placed: Record<string, string> = { 'X-Key': 'k' };
  addDefaultBearer(placed, 'k', true);
  assert.equal(placed.Authorization, undefined);
  const configured: Record<string, string> = { authorization: 'Basic x' };
  assert.ok(hasAuthorization(configured));
  addDefaultBearer(configured, 'k', false);
  assert.deepEqual(configured, { authorization: 'Basic x' });
  const none: Record<string, string> = {};
  addDefaultBearer(none, undefined, false);
  assert.deepEqual(none, {});
});
