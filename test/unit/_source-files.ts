/** The TypeScript files of a folder, its subfolders included, for tests that read the sources. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every `.ts` file under `dir`, as full paths. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}
