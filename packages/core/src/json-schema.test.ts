import { describe, expect, it } from 'vitest';
import { defaultsFromJsonSchema, publicKeysFromJsonSchema, stripToPublicSchema } from './json-schema.js';

describe('defaultsFromJsonSchema', () => {
  it('reads defaults at every depth, through arrays', () => {
    const schema = {
      type: 'object',
      properties: {
        send_updates: { type: 'string', default: 'all' },
        slot: { type: 'object', properties: { timezone: { type: 'string', default: 'UTC' } } },
        attendees: { type: 'array', items: { type: 'object', properties: { optional: { type: 'boolean', default: false } } } },
        title: { type: 'string' },
      },
    };
    expect(defaultsFromJsonSchema(schema)).toEqual({ send_updates: 'all', 'slot.timezone': 'UTC', 'attendees.optional': false });
  });

  it('reads sub-models through a local $ref (Pydantic: $defs, allOf, an optional anyOf), a default beside the $ref winning', () => {
    const schema = {
      $defs: {
        Slot: { type: 'object', properties: { timezone: { type: 'string', default: 'UTC' }, length: { type: 'integer', default: 30 } } },
        Owner: { type: 'object', properties: { team: { $ref: '#/definitions/Team' } } },
      },
      definitions: { Team: { type: 'object', properties: { region: { type: 'string', default: 'eu' } } } },
      type: 'object',
      properties: {
        slot: { $ref: '#/$defs/Slot' },
        backup: { anyOf: [{ $ref: '#/$defs/Slot' }, { type: 'null' }], default: null },
        pinned: { allOf: [{ $ref: '#/$defs/Slot' }] },
        owner: { $ref: '#/$defs/Owner' },
        length: { $ref: '#/$defs/Slot/properties/length', default: 45 },
      },
    };
    expect(defaultsFromJsonSchema(schema)).toEqual({
      'slot.timezone': 'UTC',
      'slot.length': 30,
      backup: null,
      'backup.timezone': 'UTC',
      'backup.length': 30,
      'pinned.timezone': 'UTC',
      'pinned.length': 30,
      'owner.team.region': 'eu',
      length: 45,
    });
  });

  it('counts the only value a schema allows (const, a one-value enum) as asserted; a choice among several is not', () => {
    const schema = {
      type: 'object',
      properties: { currency: { const: 'USD' }, unit: { enum: ['metric'] }, mode: { enum: ['fast', 'slow'] } },
    };
    expect(defaultsFromJsonSchema(schema)).toEqual({ currency: 'USD', unit: 'metric' });
  });

  it('stops on a $ref that points to itself and on one it cannot resolve', () => {
    const schema = { $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' }, tag: { default: 'x' } } } }, properties: { root: { $ref: '#/$defs/Node' }, lost: { $ref: '#/$defs/Missing' }, far: { $ref: 'https://example.com/s.json' } } };
    const defaults = defaultsFromJsonSchema(schema);
    expect(defaults['root.tag']).toBe('x');
    expect(defaults['root.next.tag']).toBe('x');
    expect(Object.keys(defaults).every((k) => k.startsWith('root.'))).toBe(true);
  });
});

describe('publicKeysFromJsonSchema and stripToPublicSchema', () => {
  it('declare the keys of a $ref sub-model, so a hop keeps them', () => {
    const schema = { $defs: { Slot: { type: 'object', properties: { timezone: { type: 'string' } } } }, properties: { slot: { $ref: '#/$defs/Slot' } } };
    expect(publicKeysFromJsonSchema(schema)).toEqual(['slot', 'slot.timezone']);
    expect(stripToPublicSchema({ slot: { timezone: 'UTC', secret: 'x' } }, publicKeysFromJsonSchema(schema))).toEqual({ args: { slot: { timezone: 'UTC' } }, stripped: ['slot.secret'] });
  });
});
