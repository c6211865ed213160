/**
 * A set of secrets that grows as they become known (a key from the environment, header values
 * once their templates are filled in, credentials in an address) with the one masking core of
 * src/util/secretMask.ts over it. It is passed to whoever registers or prints: the hosted bridge
 * makes one per process and hands it to its parts, so no module holds secrets as global state.
 */
import { createMasker, mapStrings, type Masker, type MaskOptions } from './secretMask';

export class SecretRedactor {
  private readonly values = new Set<string>();
  private masker: Masker | undefined;

  /** `opts`: as for the masker (the bridge's stderr is no JSON lines: it masks number-like keys too). */
  constructor(private readonly opts: MaskOptions = {}) {}

  /** Registers a value that must never be printed (values under 4 characters would mask too much). */
  add(value: string | undefined): void {
    if (!value || value.length < 4 || this.values.has(value)) return;
    this.values.add(value);
    this.masker = undefined;
  }

  /** Every registered value masked, in each form it takes (as given, JSON-escaped, base64). */
  text(text: string): string {
    if (this.values.size === 0) return text;
    this.masker ??= createMasker([...this.values], this.opts);
    return this.masker.exact(text);
  }

  /** A JSON value with every string redacted (keys stay; the input is not changed). */
  deep(value: unknown): unknown {
    return this.values.size === 0 ? value : mapStrings(value, (s) => this.text(s));
  }

  /** The registered values (for a masker with other rules over the same secrets). */
  get secrets(): readonly string[] {
    return [...this.values];
  }
}
