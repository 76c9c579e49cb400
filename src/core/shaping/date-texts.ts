/**
 * Where the `Date`s of shaped items are: a walker for the JSON writer that reads each selected
 * member of an item by its name, instead of looking through every member of every object.
 */
import { type DateTextsWalker, dateJson, withDateTexts } from '../http/json.ts';
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
 *
 * An item the list's `made` still holds at its index is the projector's copy for this response
 * alone: its members take their texts in place, and it is not copied again. A selection inside
 * it is walked with copies all the same: a hook may have put a value of its own there.
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

/** An item's walks: `copy` copies it when a member changes, `inPlace` sets the member in it. */
interface ItemWalks {
  copy: ItemTexts;
  inPlace?: ItemTexts;
}

/**
 * The walks of one item's selected members (`inPlace` only when asked), or `undefined`. A member
 * with a selection inside was projected too, so it is walked the same way, with copies; any other
 * object member takes the JSON writer's own walk.
 */
function compileItem(fields: readonly SelectedField[], inPlace = false): ItemWalks | undefined {
  // `__proto__` would set a copy's prototype; a member named `toJSON` makes JSON.stringify call it
  // with the item, which must then be the item as it is.
  if (fields.some((f) => f.key === '__proto__' || f.key === 'toJSON')) return undefined;
  const members: MemberTexts[] = [];
  // Names come from the resource's declaration, written as JSON string literals.
  const steps = fields.map(({ key, sub }) => {
    const name = JSON.stringify(key);
    // A `Date`, the common case, is turned into its text without the call to the whole walk.
    let walk = 'x instanceof D ? t(x) : w(x, d)';
    if (sub !== undefined) {
      const inner = compileItem(sub);
      if (inner !== undefined) {
        members.push(memberTexts(inner.copy));
        walk = `m[${members.length - 1}](x, d)`;
      }
    }
    return (target: string) =>
      `x = v[${name}]; if (typeof x === "object" && x !== null) { y = ${walk}; if (y !== x) ${target}[${name}] = y; }`;
  });
  const make = (target: string) =>
    compiled<ItemTexts>(
      ['w', 'm', 't', 'D'],
      `"use strict";\nreturn (v, d) => {\nlet c, x, y;\n${steps.map((step) => step(target)).join('\n')}\nreturn c ?? v;\n};`,
      [withDateTexts, members, dateJson, Date],
    );
  const copy = make('(c ??= { ...v })');
  if (copy === undefined) return undefined;
  return inPlace ? { copy, inPlace: make('v') } : { copy };
}

/** A member with a selection inside: one projected object, or a list of them. */
function memberTexts(item: ItemTexts): MemberTexts {
  const list = listTexts(item);
  return (value, depth) => {
    if (depth >= maxDepth) return value;
    if (Array.isArray(value)) return 'toJSON' in value ? value : list(value, depth, undefined);
    return projected(value) ? item(value, depth + 1) : withDateTexts(value, depth);
  };
}

/**
 * The items of a list at `depth`, each walked at `depth + 1` as {@link withDateTexts} would; with
 * `finish`, an item that `made` holds at its index takes its texts in place.
 */
function listTexts(item: ItemTexts, finish?: ItemTexts): DateTextsWalker {
  return (items, depth, made) => {
    let copy: unknown[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const value = items[i];
      if (typeof value !== 'object' || value === null) continue;
      let next: unknown;
      if (!projected(value) || depth + 1 >= maxDepth) next = withDateTexts(value, depth + 1);
      else if (finish !== undefined && made !== undefined && made[i] === value) {
        next = finish(value, depth + 2);
      } else next = item(value, depth + 2);
      if (next === value) continue;
      copy ??= items.slice();
      copy[i] = next;
    }
    return copy ?? items;
  };
}

function compileWalker(fields: readonly SelectedField[]): DateTextsWalker | null {
  const item = compileItem(fields, true);
  return item === undefined ? null : listTexts(item.copy, item.inPlace);
}
