/**
 * Typed run-time checks for the fields of page → host messages. A check is a type guard, so one
 * declaration of a message's fields gives both its TypeScript type and its validator (the chat
 * panel's table is webviewMessages.ts, the protocol inspector's inspectorMessages.ts): they cannot
 * disagree. Small on purpose — the page bundles import them too.
 */
import { isRecord } from './guards';

export type Check<T> = (value: unknown) => value is T;

/** The type a check admits. */
export type Checked<C> = C extends Check<infer T> ? T : never;

export type Fields = Readonly<Record<string, Check<unknown>>>;

/** The message fields a set of checks describes: optional where the check admits undefined; readonly. */
export type FieldsOf<F extends Fields> = {
  readonly [K in keyof F as undefined extends Checked<F[K]> ? never : K]: Checked<F[K]>;
} & {
  readonly [K in keyof F as undefined extends Checked<F[K]> ? K : never]?: Exclude<Checked<F[K]>, undefined>;
};

export const str: Check<string> = (v): v is string => typeof v === 'string';
export const bool: Check<boolean> = (v): v is boolean => typeof v === 'boolean';
export const int: Check<number> = (v): v is number => Number.isInteger(v);
export const count: Check<number> = (v): v is number => Number.isInteger(v) && (v as number) >= 0;
export const object: Check<Record<string, unknown>> = isRecord;

/** Admits any value while typing it as `T`: for `ready`, whose version the host compares itself. */
export function unchecked<T>(): Check<T> {
  return (_v): _v is T => true;
}

export function optional<T>(check: Check<T>): Check<T | undefined> {
  return (v): v is T | undefined => v === undefined || check(v);
}

export function oneOf<const T extends readonly string[]>(...values: T): Check<T[number]> {
  return (v): v is T[number] => typeof v === 'string' && values.includes(v);
}

export function either<A, B>(a: Check<A>, b: Check<B>): Check<A | B> {
  return (v): v is A | B => a(v) || b(v);
}

/** An array of at most `max` items, each passing `item`. */
export function listOf<T>(item: Check<T>, max = Number.POSITIVE_INFINITY): Check<readonly T[]> {
  return (v): v is readonly T[] => Array.isArray(v) && v.length <= max && v.every(item);
}

/** A string of at most `max` characters. */
export function shortStr(max: number): Check<string> {
  return (v): v is string => typeof v === 'string' && v.length < max;
}

/** Checks every field; unknown extra fields are ignored (they are never read). */
export function fieldsPass(fields: Fields, message: Record<string, unknown>): boolean {
  for (const key in fields) if (!fields[key](message[key])) return false;
  return true;
}

/** A page's table of page → host messages: each type's fields (the chat panel's rows add more). */
export type MessageTable = Readonly<Record<string, { readonly fields: Fields }>>;

/** One message of a table, as a type: `type` and its fields (readonly). */
export type DeclaredMessage<T extends MessageTable, K extends keyof T> = { readonly type: K } & FieldsOf<T[K]['fields']>;

/** Every message of a table, as a union. */
export type DeclaredMessages<T extends MessageTable> = { [K in keyof T]: DeclaredMessage<T, K> }[keyof T];

/**
 * A page renders agent content, so what it posts is untrusted input: a message passes only as one of
 * the table's types (own keys only: `constructor` or `toString` must not find Object.prototype's
 * functions) with every declared field passing its check.
 */
export function isDeclaredMessage<T extends MessageTable>(table: T, raw: unknown): raw is DeclaredMessages<T> {
  if (!isRecord(raw)) return false;
  const type = raw.type;
  return typeof type === 'string' && Object.hasOwn(table, type) && fieldsPass(table[type].fields, raw);
}
