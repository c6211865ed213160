import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cmdArgument, mergeEnv, quoteForDisplay, shellInvocation } from '../../src/client/shellInvocation';
import type { InvocationRequest } from '../../src/client/shellInvocation';

// Pure functions of (request, platform, env): every case runs on every OS.
const posix = (command: string, args: string[] = [], more: Partial<InvocationRequest> = {}) =>
  shellInvocation({ command, args, platform: 'linux', env: { SHELL: '/bin/zsh' }, ...more });
const windows = (command: string, args: string[] = [], more: Partial<InvocationRequest> = {}) =>
  shellInvocation({ command, args, platform: 'win32', env: { ComSpec: 'C:\\Windows\\system32\\cmd.exe' }, ...more });

describe('shellInvocation on POSIX', () => {
  test('a whole command line without args runs through $SHELL -c, shown as written', () => {
    const line = 'npm test 2>&1 | tail -n 5 && echo "done: $?"';
    assert.deepEqual(posix(line), { file: '/bin/zsh', args: ['-c', line], verbatim: false, viaShell: true, display: line });
  });

  test('the configured shell wins over $SHELL; /bin/sh when neither is set', () => {
    assert.equal(posix('ls -la', [], { shell: '/bin/bash' }).file, '/bin/bash');
    assert.equal(shellInvocation({ command: 'ls -la', args: [], platform: 'darwin', env: {} }).file, '/bin/sh');
  });

  test('a single word without args, or a command with args, is spawned directly', () => {
    assert.deepEqual(posix('pwd'), { file: 'pwd', args: [], verbatim: false, viaShell: false, display: 'pwd' });
    assert.deepEqual(posix('git', ['status', '--short']), {
      file: 'git',
      args: ['status', '--short'],
      verbatim: false,
      viaShell: false,
      display: 'git status --short',
    });
    // With args the command is never a command line, even when it looks like one.
    assert.equal(posix('ls -la', ['x']).viaShell, false);
  });

  test('args with spaces, quotes and shell syntax are passed verbatim and quoted only for display', () => {
    const args = ['%s|', 'a b', "it's", '$HOME', '`x`', ''];
    const run = posix('printf', args);
    assert.deepEqual(run.args, args);
    assert.equal(run.display, `printf '%s|' 'a b' 'it'\\''s' '$HOME' '\`x\`' ''`);
  });

  test('the resolver is not consulted off Windows', () => {
    const run = posix('npm', ['test'], { resolve: () => '/usr/lib/node_modules/npm.cmd' });
    assert.deepEqual([run.file, run.viaShell], ['npm', false]);
  });
});

describe('shellInvocation on Windows', () => {
  test('a whole command line runs through cmd.exe /d /s /c "…" with verbatim arguments', () => {
    const line = 'dir /b *.ts | findstr "spec"';
    assert.deepEqual(windows(line), {
      file: 'C:\\Windows\\system32\\cmd.exe',
      args: ['/d', '/s', '/c', `"${line}"`],
      verbatim: true,
      viaShell: true,
      display: line,
    });
  });

  test('ComSpec is found case-insensitively, cmd.exe without it, the configured shell first', () => {
    assert.equal(shellInvocation({ command: 'echo hi', args: [], platform: 'win32', env: { COMSPEC: 'D:\\cmd.exe' } }).file, 'D:\\cmd.exe');
    assert.equal(shellInvocation({ command: 'echo hi', args: [], platform: 'win32', env: {} }).file, 'cmd.exe');
    assert.equal(windows('echo hi', [], { shell: 'C:\\tools\\cmd.exe' }).file, 'C:\\tools\\cmd.exe');
  });

  test('a program with args is spawned directly; Node quotes its arguments', () => {
    const run = windows('git', ['commit', '-m', 'a "quoted" message'], { resolve: () => 'C:\\Program Files\\Git\\cmd\\git.exe' });
    assert.deepEqual(run, {
      file: 'git',
      args: ['commit', '-m', 'a "quoted" message'],
      verbatim: false,
      viaShell: false,
      display: 'git commit -m "a \\"quoted\\" message"',
    });
  });

  test('a .cmd shim found on PATH runs through cmd.exe with every argument quoted and escaped', () => {
    const resolved = 'C:\\Program Files\\nodejs\\npm.cmd';
    const run = windows('npm', ['install', 'left pad', 'x&calc'], { resolve: (c) => (c === 'npm' ? resolved : undefined) });
    const line = `"${resolved}" ^^^"install^^^" ^^^"left^^^ pad^^^" ^^^"x^^^&calc^^^"`;
    assert.deepEqual(run, {
      file: 'C:\\Windows\\system32\\cmd.exe',
      args: ['/d', '/s', '/c', `"${line}"`],
      verbatim: true,
      viaShell: true,
      display: 'npm install "left pad" "x&calc"',
    });
  });

  test('a .bat named explicitly needs no resolver', () => {
    const run = windows('scripts\\build.BAT', ['--release']);
    assert.equal(run.viaShell, true);
    assert.equal(run.args[3], '""scripts\\build.BAT" ^^^"--release^^^""');
  });

  test('cmd arguments: quotes, trailing backslashes, percent signs and carets survive both parses', () => {
    assert.equal(cmdArgument('a"b'), '^^^"a\\^^^"b^^^"');
    assert.equal(cmdArgument('C:\\dir\\'), '^^^"C:\\dir\\\\^^^"');
    assert.equal(cmdArgument('back\\\\"slash'), '^^^"back\\\\\\\\\\^^^"slash^^^"');
    assert.equal(cmdArgument('50%PATH%'), '^^^"50^^^%PATH^^^%^^^"');
    assert.equal(cmdArgument('^'), '^^^"^^^^^^^"');
    assert.equal(cmdArgument(''), '^^^"^^^"');
  });
});

describe('mergeEnv', () => {
  test('the request overrides and adds; everything else is kept; unset base variables are dropped', () => {
    const env = mergeEnv(
      { PATH: '/bin', FOO: 'base', KEEP: 'kept', GONE: undefined },
      [
        { name: 'FOO', value: 'over' },
        { name: 'NEW', value: '' },
      ],
      'linux',
    );
    assert.deepEqual(env, { PATH: '/bin', FOO: 'over', KEEP: 'kept', NEW: '' });
    assert.ok(!('GONE' in env), 'an undefined value must not reach the child as "undefined"');
  });

  test('names are case-sensitive on POSIX and case-insensitive on Windows', () => {
    assert.deepEqual(mergeEnv({ Path: 'a' }, [{ name: 'PATH', value: 'b' }], 'linux'), { Path: 'a', PATH: 'b' });
    assert.deepEqual(mergeEnv({ Path: 'C:\\a', Foo: '1' }, [{ name: 'PATH', value: 'C:\\b' }], 'win32'), { Foo: '1', PATH: 'C:\\b' });
  });

  test('the base env is not modified', () => {
    const base = { A: '1' };
    mergeEnv(base, [{ name: 'A', value: '2' }], 'win32');
    assert.deepEqual(base, { A: '1' });
  });
});

describe('quoteForDisplay', () => {
  test('plain words stay bare; the rest is quoted the way the platform shell reads it', () => {
    assert.equal(quoteForDisplay('--flag', 'linux'), '--flag');
    assert.equal(quoteForDisplay("it's", 'linux'), `'it'\\''s'`);
    assert.equal(quoteForDisplay('a "b"', 'win32'), '"a \\"b\\""');
    assert.equal(quoteForDisplay('', 'win32'), '""');
  });
});
