// Where a session-relative reference points, as `dirname` and `basename` of `join(dir, ref)`,
// without a join per reference: a session names thousands of sidecars in the one `turns/` folder,
// and normalising each whole path cost more than checking the file.
import { basename, dirname, join, sep } from 'node:path';

/** A segment `join` keeps as written (not empty, not `.` or `..`, no separator of either kind). */
function plainSegment(s: string): boolean {
  return s !== '' && s !== '.' && s !== '..' && !s.includes('\\');
}

export class RefPaths {
  /** A reference's folder part (`turns`) → `dirname(join(dir, ref))`, for plain folder parts. */
  private readonly parents = new Map<string, string>();

  constructor(private readonly dir: string) {}

  /** `dirname(join(dir, ref))` and `basename(join(dir, ref))`, the same strings. */
  split(ref: string): { parent: string; name: string } {
    const cut = ref.lastIndexOf('/');
    const name = ref.slice(cut + 1);
    if (sep === '/' && plainSegment(name)) {
      const refDir = cut === -1 ? '' : ref.slice(0, cut);
      let parent = this.parents.get(refDir);
      if (parent === undefined && (refDir === '' || refDir.split('/').every(plainSegment))) {
        parent = dirname(join(this.dir, ref));
        this.parents.set(refDir, parent);
      }
      if (parent !== undefined) return { parent, name };
    }
    const full = join(this.dir, ref);
    return { parent: dirname(full), name: basename(full) };
  }
}

/** `join(realFolder, name)` for a real (absolute, normalised) folder and a name `split` gave. */
export function inFolder(realFolder: string, name: string): string {
  return sep === '/' ? (realFolder.endsWith('/') ? realFolder + name : `${realFolder}/${name}`) : join(realFolder, name);
}
