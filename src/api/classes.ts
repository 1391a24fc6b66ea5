import { Type, type Static } from '@sinclair/typebox';
import { TimestampSchema, UuidSchema } from './common.js';

export const ClassSchema = Type.Object(
  {
    id: UuidSchema,
    label: Type.String({ minLength: 1 }),
    parentClassId: Type.Union([UuidSchema, Type.Null()]),
    rootClassId: UuidSchema,
    createdAt: TimestampSchema,
  },
  { title: 'Class' },
);
export type Class = Static<typeof ClassSchema>;

/** Classes are the one resource whose bodies reject unknown properties (platform-api.md). */
export const CreateClassBodySchema = Type.Object(
  {
    label: Type.String({ minLength: 1 }),
    parentClassId: Type.Optional(Type.Union([UuidSchema, Type.Null()])),
  },
  { additionalProperties: false },
);
export type CreateClassBody = Static<typeof CreateClassBodySchema>;

export const RenameClassBodySchema = Type.Object(
  { label: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
export type RenameClassBody = Static<typeof RenameClassBodySchema>;

export const ClassResponseSchema = Type.Object({ class: ClassSchema });
