// The loopback callback of an OAuth link (what must be forwarded when VS Code runs remotely).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loopbackCallback } from '../../src/util/loopbackCallback';

test('a redirect_uri on localhost or 127.0.0.1 with a port is the callback to forward', () => {
  const link = 'https://auth.example/authorize?client_id=x&redirect_uri=http%3A%2F%2Flocalhost%3A54545%2Fcallback&state=s';
  assert.deepEqual(loopbackCallback(link), { origin: 'http://localhost:54545', port: 54545 });
  assert.deepEqual(loopbackCallback('https://a.example/login?callback_url=http://127.0.0.1:8085/cb'), { origin: 'http://127.0.0.1:8085', port: 8085 });
});

test('links without a loopback callback are left alone', () => {
  assert.equal(loopbackCallback('https://auth.example/authorize?redirect_uri=https%3A%2F%2Fapp.example%2Fcb'), undefined);
  assert.equal(loopbackCallback('https://auth.example/authorize?redirect_uri=http%3A%2F%2Flocalhost%2Fcb'), undefined, 'no port, nothing to forward');
  assert.equal(loopbackCallback('https://docs.example/page?q=http://localhost:3000'), undefined, 'not a redirect parameter');
  assert.equal(loopbackCallback('not a url'), undefined);
});
