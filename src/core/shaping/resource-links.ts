/** A resource's links: rules checked once, then the links of one item for a caller (spec 2.12). */
import { assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../kernel/context.ts';
import { identityKey } from './link-key.ts';

/**
 * One operation a resource may offer, shown in its `links` only when `when` allows it
 * (spec 2.12: operations that are not possible are not shown).
 *
 * @category Payloads
 */
// biome-ignore lint/suspicious/noExplicitAny: an undeclared item type is left open
export interface LinkRule<T = any> {
  /** The method of the operation. */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The operation's target for one item. */
  href: (item: T, ctx: RequestContext) => string;
  /**
   * Whether the caller may perform it on this item: a scope (`hasScopes(ctx.identity, …)`),
   * ownership (`item.ownerId === ctx.identity?.subject`) or the item's state. @default always
   */
  when?: (ctx: RequestContext, item: T) => boolean;
}

/**
 * A link as it appears in a resource's `links` list.
 *
 * @category Payloads
 */
export interface ResourceLink {
  /** What the operation is (`self`, `update`, `delete`, or the service's own word). */
  rel: string;
  /** The method to use. */
  method: string;
  /** The target. */
  href: string;
}

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** What a resource keeps of its link rules. */
export interface CompiledLinks {
  /** Whether there is any link. */
  readonly hasLinks: boolean;
  /** What decides the caller's links; `undefined` when no rule has a `when`. */
  readonly linkKey: ((ctx: RequestContext) => string) | undefined;
  /** The links of one item for this caller, in the declaration's order. */
  readonly linksOf: (ctx: RequestContext, item: unknown) => ResourceLink[];
}

/** Checks a resource's `links` and `linkKey` options; a mistake is a `TypeError`. */
export function compileLinks(
  where: string,
  links: Readonly<Record<string, LinkRule<never>>> | undefined,
  linkKeyOption: ((ctx: RequestContext) => string) | undefined,
): CompiledLinks {
  const linkRules = Object.entries(links ?? {}) as [string, LinkRule<unknown>][];
  for (const [rel, rule] of linkRules) {
    assertKnownKeys(`${where}: link "${rel}"`, rule, ['method', 'href', 'when']);
    if (!methods.includes(rule.method) || typeof rule.href !== 'function') {
      throw new TypeError(
        `${where}: link "${rel}" needs a method (${methods.join(', ')}) and an href function.`,
      );
    }
    if (rule.when !== undefined && typeof rule.when !== 'function') {
      throw new TypeError(`${where}: link "${rel}": \`when\` must be a function of (ctx, item).`);
    }
  }
  const hasLinks = linkRules.length > 0;
  if (linkKeyOption !== undefined && typeof linkKeyOption !== 'function') {
    throw new TypeError(`${where}: \`linkKey\` must be a function (ctx) => string.`);
  }
  const linkKey = linkRules.some(([, rule]) => rule.when !== undefined)
    ? (linkKeyOption ?? identityKey)
    : undefined;
  const rels = linkRules.map(([rel]) => rel);
  const rules = linkRules.map(([, rule]) => rule);
  const link = (i: number, ctx: RequestContext, item: unknown): ResourceLink => ({
    rel: rels[i]!,
    method: rules[i]!.method,
    href: rules[i]!.href(item, ctx),
  });
  const linksOf = (ctx: RequestContext, item: unknown): ResourceLink[] => {
    if (rules.length > 30) {
      const out: ResourceLink[] = [];
      for (let i = 0; i < rules.length; i++) {
        const { when } = rules[i]!;
        if (when === undefined || when(ctx, item)) out.push(link(i, ctx, item));
      }
      return out;
    }
    // The rules that apply, as bits, then an array of their number: a `[]` that grows takes
    // room for 16, and cutting an array's length afterwards is a call into the engine.
    let kept = 0;
    let count = 0;
    for (let i = 0; i < rules.length; i++) {
      const { when } = rules[i]!;
      if (when === undefined || when(ctx, item)) {
        kept |= 1 << i;
        count++;
      }
    }
    const out: ResourceLink[] = new Array(count);
    for (let i = 0, at = 0; i < rules.length; i++)
      if (kept & (1 << i)) out[at++] = link(i, ctx, item);
    return out;
  };

  return { hasLinks, linkKey, linksOf };
}
