import { Type, type Static } from '@sinclair/typebox';
import { TimestampSchema, UuidSchema } from './common.js';

export const WORKSPACE_TIMEZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'America/Adak',
  'Pacific/Honolulu',
  'America/Puerto_Rico',
  'Pacific/Guam',
  'Pacific/Pago_Pago',
  'UTC',
] as const;
export type WorkspaceTimezone = (typeof WORKSPACE_TIMEZONES)[number];
export const DEFAULT_WORKSPACE_TIMEZONE: WorkspaceTimezone = 'America/Los_Angeles';

export const WorkspaceTimezoneSchema = Type.Union(
  WORKSPACE_TIMEZONES.map((tz) => Type.Literal(tz)),
);

export const WorkspaceSchema = Type.Object(
  {
    id: UuidSchema,
    name: Type.String(),
    timezone: WorkspaceTimezoneSchema,
    createdAt: TimestampSchema,
  },
  { title: 'Workspace' },
);
export type Workspace = Static<typeof WorkspaceSchema>;

export const CreateWorkspaceBodySchema = Type.Object({
  name: Type.String({ description: '1–255 characters after trimming' }),
  timezone: Type.Optional(WorkspaceTimezoneSchema),
});
export type CreateWorkspaceBody = Static<typeof CreateWorkspaceBodySchema>;

export const WorkspaceResponseSchema = Type.Object({ workspace: WorkspaceSchema });
