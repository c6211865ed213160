/**
 * A view under construction. The views in this folder are readonly (the receiver must not change
 * what it was sent); a builder that fills optional fields one by one (so that no `undefined` key is
 * sent) declares its local object as a `Draft` and hands it out as the readonly view. Use it only
 * for such a local, never in a signature: it costs nothing at run time, where copying would.
 */
export type Draft<T> = { -readonly [K in keyof T]: T[K] extends ReadonlyArray<infer U> ? U[] : T[K] };

/**
 * A `Draft` whose arrays stay as the view has them: for a builder that sets fields one by one but
 * hands on arrays it was given (a stored view's hunks), which it must not be able to change.
 */
export type FieldDraft<T> = { -readonly [K in keyof T]: T[K] };
