/**
 * The JSON Schema subset the `tandem` tools declare, and the one validator that reads it: each tool's
 * `inputSchema` is both what the agent is shown and what its arguments are checked against, so the
 * two cannot drift. The errors name the argument and what was expected, for the model to fix its
 * call (an agent's MCP client may or may not validate before calling).
 */
export type JsonSchema =
  | { type: 'string'; description?: string; minLength?: number }
  | { type: 'integer'; description?: string; minimum?: number }
  | { type: 'array'; description?: string; items: JsonSchema; minItems?: number; maxItems?: number }
  | ObjectSchema;

export interface ObjectSchema {
  type: 'object';
  description?: string;
  properties: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties: false;
}

/** Thrown for arguments that do not match a tool's schema; the message is for the model. */
export class ToolArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolArgumentError';
  }
}

/** Checks `value` against `schema`, throwing a `ToolArgumentError` that names the first problem. */
export function validate(schema: JsonSchema, value: unknown, at = 'arguments'): void {
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') throw new ToolArgumentError(`${at} must be a string, got ${describe(value)}`);
      if (schema.minLength !== undefined && value.length < schema.minLength) {
        throw new ToolArgumentError(schema.minLength === 1 ? `${at} must not be empty` : `${at} must have at least ${schema.minLength} characters`);
      }
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw new ToolArgumentError(`${at} must be an integer, got ${describe(value)}`);
      if (schema.minimum !== undefined && value < schema.minimum) throw new ToolArgumentError(`${at} must be ≥ ${schema.minimum}, got ${value}`);
      return;
    case 'array':
      if (!Array.isArray(value)) throw new ToolArgumentError(`${at} must be an array, got ${describe(value)}`);
      if (schema.minItems !== undefined && value.length < schema.minItems) {
        throw new ToolArgumentError(`${at} must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
      }
      if (schema.maxItems !== undefined && value.length > schema.maxItems) {
        throw new ToolArgumentError(`${at} must have at most ${schema.maxItems} items, got ${value.length}`);
      }
      value.forEach((item, i) => validate(schema.items, item, `${at}[${i}]`));
      return;
    case 'object':
      validateObject(schema, value, at);
      return;
  }
}

function validateObject(schema: ObjectSchema, value: unknown, at: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolArgumentError(`${at} must be an object, got ${describe(value)}`);
  }
  const record = value as Record<string, unknown>;
  for (const name of schema.required ?? []) {
    if (record[name] === undefined) throw new ToolArgumentError(`${field(at, name)} is required`);
  }
  for (const [name, item] of Object.entries(record)) {
    // Own properties only: `toString`, `constructor` or `__proto__` (which JSON.parse makes an own
    // key) must not find Object.prototype's members and pass unchecked.
    const property = Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
    if (property === undefined) {
      const known = Object.keys(schema.properties);
      throw new ToolArgumentError(
        `${field(at, name)} is not an argument of this tool${known.length > 0 ? ` (expected: ${known.join(', ')})` : ' (it takes none)'}`,
      );
    }
    // Optional arguments may be sent as null by some clients; treat that as absent.
    if (item === undefined || (item === null && !(schema.required ?? []).includes(name))) continue;
    validate(property, item, field(at, name));
  }
}

function field(at: string, name: string): string {
  return at === 'arguments' ? `\`${name}\`` : `${at}.${name}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  return typeof value === 'object' ? 'an object' : typeof value;
}
