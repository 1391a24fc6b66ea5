import { Type, type Static } from '@sinclair/typebox';
import { CalendarDaySchema, TimestampSchema, UuidSchema } from './common.js';
import { WorkspaceSchema } from './workspaces.js';

export const OrganizationSchema = Type.Object(
  { id: UuidSchema, name: Type.String(), createdAt: TimestampSchema },
  { title: 'Organization' },
);
export type Organization = Static<typeof OrganizationSchema>;

export const CreateOrganizationBodySchema = Type.Object({ name: Type.String() });
export type CreateOrganizationBody = Static<typeof CreateOrganizationBodySchema>;

export const CreateOrganizationResponseSchema = Type.Object({
  organization: OrganizationSchema,
  token: Type.String(),
});
export type CreateOrganizationResponse = Static<typeof CreateOrganizationResponseSchema>;

export const BILLING_OWNERS = ['organization', 'client'] as const;
export type BillingOwner = (typeof BILLING_OWNERS)[number];

export const WorkspaceFlagsSchema = Type.Object({
  customChartOfAccounts: Type.Boolean(),
  billingOwner: Type.Union(BILLING_OWNERS.map((o) => Type.Literal(o))),
  externalUsers: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  ruleGenerationEligible: Type.Boolean(),
});
export type WorkspaceFlags = Static<typeof WorkspaceFlagsSchema>;

export const SandboxWorkspaceSchema = Type.Composite([WorkspaceSchema, WorkspaceFlagsSchema], {
  title: 'SandboxWorkspace',
});
export type SandboxWorkspace = Static<typeof SandboxWorkspaceSchema>;

export const UpdateWorkspaceFlagsBodySchema = Type.Partial(WorkspaceFlagsSchema);
export type UpdateWorkspaceFlagsBody = Static<typeof UpdateWorkspaceFlagsBodySchema>;

export const SandboxWorkspaceResponseSchema = Type.Object({ workspace: SandboxWorkspaceSchema });

const NullableDay = Type.Union([CalendarDaySchema, Type.Null()]);

/** `MM-DD`: the day an entity's fiscal year starts (29 February refused: most years lack it). */
export const FiscalYearStartSchema = Type.String({
  pattern: '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$',
  description: 'MM-DD, the first day of the fiscal year; 01-01 a calendar year',
});

export const EntitySchema = Type.Object(
  {
    id: UuidSchema,
    workspaceId: UuidSchema,
    name: Type.String(),
    bookkeepingStartDate: NullableDay,
    lockDate: NullableDay,
    accrualLedgerOpen: Type.Boolean(),
    fiscalYearStart: FiscalYearStartSchema,
    createdAt: TimestampSchema,
  },
  { title: 'Entity' },
);
export type Entity = Static<typeof EntitySchema>;

export const CreateEntityBodySchema = Type.Object({
  name: Type.String(),
  bookkeepingStartDate: Type.Optional(NullableDay),
  fiscalYearStart: Type.Optional(FiscalYearStartSchema),
});
export type CreateEntityBody = Static<typeof CreateEntityBodySchema>;

export const UpdateEntityBodySchema = Type.Object({
  name: Type.Optional(Type.String()),
  bookkeepingStartDate: Type.Optional(NullableDay),
  lockDate: Type.Optional(NullableDay),
  fiscalYearStart: Type.Optional(FiscalYearStartSchema),
});
export type UpdateEntityBody = Static<typeof UpdateEntityBodySchema>;

export const EntityResponseSchema = Type.Object({ entity: EntitySchema });

export const FAULT_MODES = ['reject', 'after_commit'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export const CreateFaultBodySchema = Type.Object({
  method: Type.Optional(Type.String({ minLength: 1 })),
  pathPrefix: Type.Optional(Type.String({ minLength: 1 })),
  mode: Type.Union(FAULT_MODES.map((m) => Type.Literal(m))),
  status: Type.Union(
    [0, 429, 500, 502, 503, 504].map((s) => Type.Literal(s)),
    {
      description: '0 (after_commit only) drops the connection instead of answering',
    },
  ),
  count: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  retryAfter: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 3_600,
      description:
        'The seconds a 429 fault says to wait (Retry-After; default 1): 0 to retry at once, more to prove a client waits',
    }),
  ),
});
export type CreateFaultBody = Static<typeof CreateFaultBodySchema>;

export const FaultSchema = Type.Object(
  {
    id: UuidSchema,
    method: Type.Union([Type.String(), Type.Null()]),
    pathPrefix: Type.Union([Type.String(), Type.Null()]),
    mode: Type.Union(FAULT_MODES.map((m) => Type.Literal(m))),
    status: Type.Integer(),
    count: Type.Integer(),
    remaining: Type.Integer(),
    retryAfter: Type.Integer(),
  },
  { title: 'Fault' },
);
export type Fault = Static<typeof FaultSchema>;

export const FaultResponseSchema = Type.Object({ fault: FaultSchema });
