import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findOnPath, resolveServerPath, SearchEnvironment } from '../src/serverPath';

function linux(executables: string[], env: SearchEnvironment['env'] = {}, workspaceFolder?: string): SearchEnvironment {
  return {
    platform: 'linux',
    env,
    homeDir: '/home/me',
    workspaceFolder,
    isExecutable: (file) => executables.includes(file),
  };
}

test('the setting wins over PATH', () => {
  const r = resolveServerPath('/opt/jitls', linux(['/opt/jitls', '/usr/bin/jitls'], { PATH: '/usr/bin' }));
  assert.deepEqual(r, { found: true, path: '/opt/jitls', foundBy: 'setting' });
});

test('a setting that points at nothing is an error, not a fall-back to PATH', () => {
  const r = resolveServerPath('/opt/missing', linux(['/usr/bin/jitls'], { PATH: '/usr/bin' }));
  assert.equal(r.found, false);
  if (!r.found) {
    assert.deepEqual(r.searched, ['/opt/missing']);
    assert.match(r.message, /jitls.path is set to "\/opt\/missing" but there is no executable file/);
  }
});

test('~ in the setting is the home directory; a relative setting is relative to the workspace', () => {
  assert.deepEqual(resolveServerPath('~/bin/jitls', linux(['/home/me/bin/jitls'])), {
    found: true,
    path: '/home/me/bin/jitls',
    foundBy: 'setting',
  });
  assert.deepEqual(resolveServerPath('./bin/jitls', linux(['/ws/bin/jitls'], {}, '/ws')), {
    found: true,
    path: '/ws/bin/jitls',
    foundBy: 'setting',
  });
  const noFolder = resolveServerPath('bin/jitls', linux(['/ws/bin/jitls']));
  assert.equal(noFolder.found, false);
  if (!noFolder.found) {
    assert.match(noFolder.message, /no workspace folder is open/);
  }
});

test('empty setting: PATH entries in order, then GOBIN, then GOPATH/bin', () => {
  const env = { PATH: '/a:/b', GOBIN: '/gobin', GOPATH: '/gp1:/gp2' };
  assert.deepEqual(resolveServerPath('', linux(['/b/jitls', '/gobin/jitls'], env)), {
    found: true,
    path: '/b/jitls',
    foundBy: 'PATH',
  });
  assert.deepEqual(resolveServerPath('  ', linux(['/gobin/jitls', '/gp1/bin/jitls'], env)), {
    found: true,
    path: '/gobin/jitls',
    foundBy: 'GOBIN',
  });
  assert.deepEqual(resolveServerPath(undefined, linux(['/gp2/bin/jitls'], env)), {
    found: true,
    path: '/gp2/bin/jitls',
    foundBy: 'GOPATH',
  });
});

test('GOPATH defaults to ~/go; the failure lists every place searched and the install command', () => {
  assert.deepEqual(resolveServerPath('', linux(['/home/me/go/bin/jitls'], { PATH: '/usr/bin' })), {
    found: true,
    path: '/home/me/go/bin/jitls',
    foundBy: 'GOPATH',
  });
  const r = resolveServerPath('', linux([], { PATH: '/usr/bin::/usr/bin' }));
  assert.equal(r.found, false);
  if (!r.found) {
    assert.deepEqual(r.searched, ['/usr/bin/jitls', '/home/me/go/bin/jitls']);
    assert.match(r.message, /go install github.com\/jitlint\/jitlint\/cmd\/jitls@latest/);
  }
});

test('windows: ; separated Path and .exe names', () => {
  const env: SearchEnvironment = {
    platform: 'win32',
    env: { Path: 'C:\\Go\\bin;C:\\tools' },
    homeDir: 'C:\\Users\\me',
    isExecutable: (file) => file === 'C:\\tools\\jitls.exe' || file === 'C:\\Go\\bin\\go.exe',
  };
  assert.deepEqual(resolveServerPath('', env), { found: true, path: 'C:\\tools\\jitls.exe', foundBy: 'PATH' });
  assert.equal(findOnPath('go', env), 'C:\\Go\\bin\\go.exe');
});

test('findOnPath finds go on PATH only', () => {
  assert.equal(findOnPath('go', linux(['/usr/local/go/bin/go'], { PATH: '/usr/bin:/usr/local/go/bin' })), '/usr/local/go/bin/go');
  assert.equal(findOnPath('go', linux(['/home/me/go/bin/go'], { PATH: '/usr/bin' })), undefined);
});
