import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { compileSerializer } from '../../src/platform/http/validation.js';

describe("an answer's serializer", () => {
  const Line = Type.Object({
    accountId: Type.String(),
    amount: Type.Union([Type.Number(), Type.Null()]),
  });
  const Answer = Type.Object({
    report: Type.Object({
      title: Type.String(),
      lines: Type.Array(Line),
      parent: Type.Union([Line, Type.Null()]),
      payload: Type.Record(Type.String(), Type.Unknown()),
    }),
  });
  const serialize = compileSerializer(Answer);

  it('keeps only what the schema lists, at any depth, in the schema’s order', () => {
    const written = serialize({
      internalId: 7,
      report: {
        lines: [
          { amount: 12.5, organizationId: 'secret', accountId: 'a1' },
          { accountId: 'a2', amount: null },
        ],
        title: 'Trial balance',
        parent: { accountId: 'p', amount: 1, hidden: true },
        payload: { any: { thing: 'kept' } },
        secret: 'x',
      },
    });
    expect(written).toBe(
      '{"report":{"title":"Trial balance","lines":[{"accountId":"a1","amount":12.5},{"accountId":"a2","amount":null}],"parent":{"accountId":"p","amount":1},"payload":{"any":{"thing":"kept"}}}}',
    );
  });

  it('writes null where a shape may be null, and leaves out what is undefined', () => {
    expect(
      serialize({ report: { title: 'x', lines: [], parent: null, payload: {}, extra: undefined } }),
    ).toBe('{"report":{"title":"x","lines":[],"parent":null,"payload":{}}}');
  });

  it('refuses a union of several shapes, which it could not choose between', () => {
    const serializeUnion = compileSerializer(
      Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]),
    );
    expect(() => serializeUnion({ a: 'x' })).toThrow(
      'a response union of shapes no literal tells apart',
    );
  });

  it('keeps each shape of a union its literal `kind` tells apart, and only what that shape lists', () => {
    const serializeUnion = compileSerializer(
      Type.Object({
        category: Type.Union([
          Type.Object({ kind: Type.Literal('account'), account: Type.String() }),
          Type.Object({
            kind: Type.Literal('split'),
            parts: Type.Array(Type.Object({ n: Type.Number() })),
          }),
          Type.Null(),
        ]),
      }),
    );
    expect(serializeUnion({ category: { kind: 'account', account: 'A', parts: [] } })).toBe(
      '{"category":{"kind":"account","account":"A"}}',
    );
    expect(serializeUnion({ category: { kind: 'split', parts: [{ n: 1, x: 2 }] } })).toBe(
      '{"category":{"kind":"split","parts":[{"n":1}]}}',
    );
    expect(serializeUnion({ category: null })).toBe('{"category":null}');
  });
});
