/**
 * Where the `Date`s of shaped items are: a walker for the JSON writer that reads each selected
 * member of an item by its name, instead of looking through every member of every object.
 */
import { type DateTextsWalker, withDateTexts } from '../http/json.ts';
import { compiled } from '../internal/platform.ts';
import type { SelectedField } from './select-fields.ts';

type ItemTexts = (item: object, depth: number) => object;

const { getPrototypeOf } = Object;
// The depth past which the JSON writer's own walk leaves a value to the built-in.
const maxDepth = 64;
const walkersOf = new WeakMap<readonly SelectedField[], DateTextsWalker | null>();

/**
 * The walker of a list's shaped items, one per selection (made on first use, kept while the
 * selection lives); `null` where code cannot be compiled or a name cannot be read this way.
 *
 * An item the projector copied is a plain object with the selection's members and the trailing
 * `links` (links the library made: no `Date` to look for). Each selected member that holds an
 * object goes through the JSON writer's own walk ({@link withDateTexts}), which turns a `Date`
 * into its text and looks inside anything else; the item is copied only when one changed. Any
 * other item (a value the projector gave back as it was) takes that walk whole.
 */
export function dateTextsOf(fields: readonly SelectedField[]): DateTextsWalker | null {
  let walker = walkersOf.get(fields);
  if (walker === undefined) {
    walker = compileWalker(fields);
    walkersOf.set(fields, walker);
  }
  return walker;
}

type MemberTexts = (value: object, depth: number) => unknown;

/** Whether a value is a copy the projector made: a plain object with no `toJSON` of its own. */
function projected(value: object): boolean {
  return getPrototypeOf(value) === Object.prototype && !('toJSON' in value);
}

/**
 * The walk of one item's selected members, or `undefined`. A member with a selection inside was
 * projected too, so it is walked the same way; any other object member takes the JSON writer's
 * own walk.
 */
function compileItem(fields: readonly SelectedField[]): ItemTexts | undefined {
  // `__proto__` would set a copy's prototype; a member named `toJSON` makes JSON.stringify call it
  // with the item, which must then be the item as it is.
  if (fields.some((f) => f.key === '__proto__' || f.key === 'toJSON')) return undefined;
  const members: MemberTexts[] = [];
  // Names come from the resource's declaration, written as JSON string literals.
  const steps = fields.map(({ key, sub }) => {
    const name = JSON.stringify(key);
    let walk = 'w';
    if (sub !== undefined) {
      const inner = compileItem(sub);
      if (inner !== undefined) {
        members.push(memberTexts(inner));
        walk = `m[${members.length - 1}]`;
      }
    }
    return `x = v[${name}]; if (typeof x === "object" && x !== null) { y = ${walk}(x, d); if (y !== x) (c ??= { ...v })[${name}] = y; }`;
  });
  return compiled<ItemTexts>(
    ['w', 'm'],
    `"use strict";\nreturn (v, d) => {\nlet c, x, y;\n${steps.join('\n')}\nreturn c ?? v;\n};`,
    [withDateTexts, members],
  );
}

/** A member with a selection inside: one projected object, or a list of them. */
function memberTexts(item: ItemTexts): MemberTexts {
  const list = listTexts(item);
  return (value, depth) => {
    if (depth >= maxDepth) return value;
    if (Array.isArray(value)) return 'toJSON' in value ? value : list(value, depth);
    return projected(value) ? item(value, depth + 1) : withDateTexts(value, depth);
  };
}

/** The items of a list at `depth`, each walked at `depth + 1` as {@link withDateTexts} would. */
function listTexts(item: ItemTexts): DateTextsWalker {
  return (items, depth) => {
    let copy: unknown[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const value = items[i];
      if (typeof value !== 'object' || value === null) continue;
      const next =
        projected(value) && depth + 1 < maxDepth
          ? item(value, depth + 2)
          : withDateTexts(value, depth + 1);
      if (next === value) continue;
      copy ??= items.slice();
      copy[i] = next;
    }
    return copy ?? items;
  };
}

function compileWalker(fields: readonly SelectedField[]): DateTextsWalker | null {
  const item = compileItem(fields);
  return item === undefined ? null : listTexts(item);
}
