/**
 * The projector property, shared by the in-process test (where Node compiles code, so each
 * selection's copies are generated object literals) and a child process started with
 * `--disallow-code-generation-from-strings` (the closures that Workers run).
 */
import fc from 'fast-check';
import { project, projectorOf } from '../../src/core/shaping/project.ts';
import {
  compileSelection,
  type FieldTree,
  parseFields,
} from '../../src/core/shaping/select-fields.ts';

const tree: FieldTree = {
  id: true,
  title: true,
  year: true,
  author: { id: true, name: true, born: { year: true, place: true } },
  tags: { name: true },
  ['__proto__']: true,
} as FieldTree;

// JSON.stringify leaves undefined members out, as clients see them.
const sent = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null');

/**
 * `Date`s as handlers hand them over: any instant (years from -271821 to 275760, which the
 * built-in writes with six digits and a sign), recent ones (written from the table of recent
 * instants), invalid ones (written as `null`), and one with a `toJSON` of its own.
 */
export const datedValues: fc.Arbitrary<Date> = fc.oneof(
  fc.date(),
  fc.date({ min: new Date(Date.UTC(2020, 0, 1)), max: new Date(Date.UTC(2030, 0, 1)) }),
  fc.constantFrom(Date.UTC(-1, 0, 1), Date.UTC(10000, 0, 1), Number.NaN).map((t) => new Date(t)),
  fc.date({ noInvalidDate: true }).map((d) => Object.assign(d, { toJSON: () => 'its own' })),
);

const leaf = fc.oneof(fc.string(), fc.integer(), fc.constant(undefined), fc.date());

/**
 * Values as handlers return them: leaves (`Date`s among them), arrays, and objects whose keys are
 * among `names`, with the shapes `more` adds.
 */
export function handlerValues(
  names: readonly string[],
  maxKeys: number,
  more: (tie: (name: string) => fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>[] = () => [],
): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom(...names), tie('value'), { maxKeys }),
      ...more(tie),
    ),
  })).value;
}

/** Throws (fast-check's report) when a projector sends other than `project` does. */
export function checkProjectors(numRuns = 500): void {
  const names = ['id', 'title', 'year', 'author', 'tags', 'secret', 'links'];
  const value = handlerValues(names, 6, (tie) => [
    // Keys exactly a selection's, in its order: the whole-copy path of the closures.
    fc.record({ id: leaf, title: leaf, year: leaf, author: tie('value'), tags: tie('value') }),
    // Members read through the prototype, as `project` reads them.
    fc.record({ id: leaf }).map((proto) => Object.create(proto) as object),
  ]);
  const wanted = fc.constantFrom(
    'id',
    'id,title,year',
    'id,title,year,author,tags',
    'author(id,born(year))',
    'tags(name),id',
    'id,__proto__',
  );
  const links = fc.array(fc.record({ rel: fc.string(), href: fc.string() }), { maxLength: 2 });
  fc.assert(
    fc.property(value, wanted, links, (v, w, l) => {
      const fields = compileSelection(parseFields(w), tree, [], 'the test');
      const want = JSON.stringify(sent(project(v, fields)));
      const got = JSON.stringify(sent(projectorOf(fields)(v)));
      if (got !== want) throw new Error(`projectorOf(${w}) sent ${got}, project sent ${want}`);
      if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Date) return;
      // With a trailing member: what project keeps, then that member, last.
      const out = projectorOf(fields, 'links')(v, l) as Record<string, unknown>;
      const keys = Object.keys(out);
      if (keys.at(-1) !== 'links' || out.links !== l) {
        throw new Error(`projectorOf(${w}, 'links') did not end with the links: ${keys}`);
      }
      const wantLinked = JSON.stringify(
        sent(Object.assign(project(v, fields) as object, { links: l })),
      );
      const gotLinked = JSON.stringify(sent(out));
      if (gotLinked !== wantLinked) {
        throw new Error(`projectorOf(${w}, 'links') sent ${gotLinked}, wanted ${wantLinked}`);
      }
      if (w.includes('__proto__') && Object.getPrototypeOf(out) !== Object.prototype) {
        throw new Error('a field named __proto__ set the copy’s prototype');
      }
    }),
    { numRuns },
  );
}

// Run as a script (the child process): print whether code was compiled, then check.
if (process.argv[1]?.endsWith('_projector-property.ts')) {
  const { compilesCode } = await import('../../src/core/internal/platform.ts');
  checkProjectors();
  console.log(`projectors ok (compilesCode: ${compilesCode})`);
}
