// Where the single file may unpack keytar's native module (src/secrets/sea-keytar.ts): only into a
// folder it made, under a parent no other user can rename entries in. The single file itself is run
// against hostile TMPDIRs in test/binary/binary.test.ts.
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { moduleFolder, unsafeParent } from '../../src/secrets/sea-keytar.js';

const uid = process.getuid?.() ?? 0;
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'floe-sea-keytar-'));
});

function folder(name: string, mode: number): string {
  const dir = join(root, name);
  mkdirSync(dir);
  chmodSync(dir, mode);
  return dir;
}

describe('unsafeParent', () => {
  it('accepts a private folder and a sticky one; refuses one writable by others, by group, or missing', () => {
    expect(unsafeParent(folder('private', 0o700), uid)).toBeUndefined();
    expect(unsafeParent(folder('sticky', 0o1777), uid)).toBeUndefined();
    const open = folder('open', 0o777);
    expect(unsafeParent(open, uid)).toBe(`${open} may be written by other users (mode 777, not sticky)`);
    const group = folder('group', 0o770);
    expect(unsafeParent(group, uid)).toBe(`${group} may be written by other users (mode 770, not sticky)`);
    expect(unsafeParent(join(root, 'missing'), uid)).toMatch(/missing cannot be used \(ENOENT/);
  });

  it('judges every folder up to /, through symlinks: a private folder inside an open one is refused', () => {
    const open = folder('open-above', 0o777);
    const inner = join(open, 'inner');
    mkdirSync(inner, { mode: 0o700 });
    expect(unsafeParent(inner, uid)).toBe(`${open} may be written by other users (mode 777, not sticky)`);
    const link = join(root, 'link-to-inner');
    symlinkSync(inner, link);
    expect(unsafeParent(link, uid)).toBe(`${open} may be written by other users (mode 777, not sticky)`);
  });

  it('refuses a folder another user owns (root may own one on the way; no one else)', () => {
    const theirs = folder('theirs', 0o755);
    // As root, give it to nobody; as anyone else, ask as if another user (this user is then the other).
    const [owner, asking] = uid === 0 ? [65534, 0] : [uid, uid + 1];
    if (uid === 0) chownSync(theirs, owner, owner);
    expect(unsafeParent(theirs, asking)).toBe(`${theirs} belongs to another user (uid ${owner})`);
  });
});

describe('moduleFolder', () => {
  it('makes a 0700 folder of its own under the first acceptable parent, saying why the others were passed', () => {
    const open = folder('tmp-open', 0o777);
    const runtime = folder('runtime', 0o700);
    const chosen = moduleFolder(
      [
        ['TMPDIR', open],
        ['XDG_RUNTIME_DIR', undefined],
        ['the config folder', runtime],
      ],
      uid,
    );
    if (!('folder' in chosen)) throw new Error(chosen.refused.join('; '));
    expect(dirname(chosen.folder)).toBe(runtime);
    expect(chosen.folder).toMatch(/floe-keytar-[^/]+$/);
    const stat = lstatSync(chosen.folder);
    expect(stat.isDirectory()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o700);
  });

  it('none acceptable: every reason, and no folder made', () => {
    const open = folder('tmp-open-2', 0o777);
    expect(
      moduleFolder(
        [
          ['TMPDIR', open],
          ['XDG_RUNTIME_DIR', undefined],
        ],
        uid,
      ),
    ).toEqual({
      refused: [
        `TMPDIR: ${open} may be written by other users (mode 777, not sticky)`,
        'XDG_RUNTIME_DIR is not set',
      ],
    });
  });
});
