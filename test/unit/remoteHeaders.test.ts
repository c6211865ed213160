// The headers a remote agent gets: `${env:NAME}` from the editor's environment, the stored token
// as a bearer token or where `${token}` says, a configured Authorization that wins, and addresses
// shown without their credentials.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor } from '../../src/acp/protocolLog';
import { headerSecrets, remoteHeaders } from '../../src/acp/remoteHeaders';
import { shownUrl, urlSecrets } from '../../src/util/secretShapes';

const quiet = (): void => undefined;

test('the token goes as a bearer token when no header names it and none is Authorization', () => {
  assert.deepEqual(remoteHeaders({ 'X-Team': 'a' }, 'tok-1234', {}, quiet), { headers: { 'X-Team': 'a', Authorization: 'Bearer tok-1234' }, tokenPlace: true });
  assert.deepEqual(remoteHeaders({}, undefined, {}, quiet), { headers: {}, tokenPlace: true }, 'no token yet: nothing sent, but a place for one');
});

test('a configured Authorization wins, and then a token has nowhere to go', () => {
  assert.deepEqual(remoteHeaders({ authorization: 'Basic abc' }, 'tok-1234', {}, quiet), { headers: { authorization: 'Basic abc' }, tokenPlace: false });
});

test('${token} puts it there (and nowhere else); without a token that header is left out', () => {
  assert.deepEqual(remoteHeaders({ Authorization: 'Token ${token}', 'X-Other': 'x' }, 'tok-1234', {}, quiet), {
    headers: { Authorization: 'Token tok-1234', 'X-Other': 'x' },
    tokenPlace: true,
  });
  assert.deepEqual(remoteHeaders({ 'X-Key': '${token}' }, undefined, {}, quiet), { headers: {}, tokenPlace: true });
});

test('${env:NAME} is read from the editor environment; an unset one is warned about', () => {
  const warnings: string[] = [];
  const { headers } = remoteHeaders({ 'X-A': 'k=${env:A_KEY}', 'X-B': '${env:B_KEY}' }, undefined, { A_KEY: 'abc' }, (w) => warnings.push(w));
  assert.deepEqual(headers, { 'X-A': 'k=abc', 'X-B': '' });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /X-B uses \$\{env:B_KEY\}/);
});

test('addresses lose their user name, password and query values before they are shown', () => {
  assert.equal(shownUrl('wss://me:pw@box.example:8443/acp'), 'wss://box.example:8443/acp');
  assert.equal(shownUrl('wss://box.example/acp?token=s3cr3t-value&team=a&token=x#frag'), 'wss://box.example/acp?token=***&team=***');
  assert.equal(shownUrl('not a url'), 'not a url');
});

test('a token in the address is masked wherever it is quoted, encoded or not', () => {
  const url = 'https://box.example/acp?access_token=abc%2Fdef%3D%3D&x=1';
  const redact = createRedactor(urlSecrets(url));
  assert.equal(redact(`GET ${url} failed`), 'GET https://box.example/acp?*** failed');
  assert.equal(redact('the server said: bad token abc/def=='), 'the server said: bad token ***');
  assert.deepEqual(urlSecrets('wss://box.example/acp'), []);
});

test('an Authorization value is masked whole and its credential alone', () => {
  const fromEnv: string[] = [];
  const { headers } = remoteHeaders(
    { Authorization: 'Bearer ${env:REMOTE_KEY}', 'X-Sig': 'k=${env:SIG}' },
    undefined,
    { REMOTE_KEY: 'rk-123456789', SIG: 'sig-abcdef' },
    quiet,
    (v) => fromEnv.push(v),
  );
  assert.deepEqual(fromEnv, ['rk-123456789', 'sig-abcdef']);
  const redact = createRedactor([...headerSecrets(headers), ...fromEnv]);
  assert.equal(redact('sent Bearer rk-123456789'), 'sent ***');
  assert.equal(redact('401: token rk-123456789 expired'), '401: token *** expired');
  assert.equal(redact('bad signature sig-abcdef'), 'bad signature ***');
});
