import { readGeneralLedger, readGeneralLedgerLines } from './generalLedgerStream.js';
import { readTaxReturn } from './taxReturnStream.js';
import { NDJSON_TYPE } from '../api/protocol.js';
import type {
  Account,
  AccountingMigration,
  ApplyRulesBody,
  ApplyRulesResponse,
  BulkDecisionBody,
  DecisionBody,
  DecisionOutcome,
  DecisionResponse,
  ForReviewQuery,
  ForReviewSummary,
  ForReviewSummaryQuery,
  AccountGroup,
  BalanceSheet,
  BankFeedConnection,
  BankTransaction,
  BreakConnectionBody,
  CashFlow,
  Class,
  CreateAccountBody,
  CreateAccountGroupBody,
  CreateBankFeedConnectionBody,
  CreateClassBody,
  CreateEntityBody,
  CreateFaultBody,
  CreateJournalEntryBody,
  CreateOpeningBalanceBody,
  CreateReconciliationBody,
  ListReconciliationsQuery,
  CreateTaxCodeBody,
  SetUpTaxBody,
  TaxCode,
  TaxReturn,
  TaxReturnQuery,
  FiledTaxReturn,
  FileTaxReturnBody,
  TaxSetup,
  UpdateTaxCodeBody,
  Reconciliation,
  CreateOrganizationResponse,
  CreateTransactionRuleBody,
  CreateWorkspaceBody,
  Entity,
  Fault,
  GeneralLedger,
  GeneralLedgerQuery,
  JournalEntry,
  LedgerBasis,
  List,
  ListJournalEntriesQuery,
  ListQuery,
  ListTransactionsQuery,
  MergeAccountsBody,
  OpeningBalance,
  ProfitAndLoss,
  PushTransactionsBody,
  ReportQuery,
  SandboxWorkspace,
  TransactionRule,
  TrialBalance,
  UpdateAccountBody,
  UpdateAccountGroupBody,
  UpdateEntityBody,
  UpdateJournalEntryBody,
  UpdateTransactionRuleBody,
  UpdateWorkspaceFlagsBody,
  Workspace,
  CreateWebhookEndpointBody,
  CreateWebhookEndpointResponse,
  WebhookAttempt,
  WebhookEndpoint,
} from '../api/index.js';
import type { ApiClient, RequestOptions } from './client.js';
import { collectPages } from './client.js';
import { journalEntryPages } from './journalEntryPages.js';

type Query = RequestOptions['query'];
const enc = encodeURIComponent;

/** One typed function per endpoint of the Platform API and the sandbox control plane. */
export function booksApi(client: ApiClient) {
  const get = <T>(path: string, query?: Query) => client.request<T>('GET', path, { query });
  const post = <T>(path: string, body?: unknown, idempotencyKey?: string) =>
    client.request<T>('POST', path, { body, idempotencyKey });
  const patch = <T>(path: string, body: unknown, query?: Query) =>
    client.request<T>('PATCH', path, { body, query });
  const remove = (path: string, query?: Query) => client.request<void>('DELETE', path, { query });
  const entity = (entityId: string) => `/platform/v1/entities/${enc(entityId)}`;
  const workspace = (workspaceId: string) => `/platform/v1/workspaces/${enc(workspaceId)}`;
  const journalEntryList = (
    entityId: string,
    query: Omit<ListJournalEntriesQuery, 'limit' | 'offset'>,
    max?: number,
  ) =>
    journalEntryPages(
      (pageQuery) => get<List<JournalEntry>>(`${entity(entityId)}/journal-entries`, pageQuery),
      query,
      max,
    );

  return {
    client,
    workspaces: {
      list: (query?: ListQuery) => get<List<Workspace>>('/platform/v1/workspaces', query),
      all: () => client.listAll<Workspace>('/platform/v1/workspaces'),
      upTo: (max: number) => client.listUpTo<Workspace>('/platform/v1/workspaces', {}, max),
      create: (body: CreateWorkspaceBody) =>
        post<{ workspace: Workspace }>('/platform/v1/workspaces', body),
      get: (id: string) => get<{ workspace: Workspace }>(workspace(id)),
      delete: (id: string) => remove(workspace(id)),
    },
    classes: {
      all: (workspaceId: string) => client.listAll<Class>(`${workspace(workspaceId)}/classes`),
      upTo: (workspaceId: string, max: number) =>
        client.listUpTo<Class>(`${workspace(workspaceId)}/classes`, {}, max),
      create: (workspaceId: string, body: CreateClassBody) =>
        post<{ class: Class }>(`${workspace(workspaceId)}/classes`, body),
      get: (workspaceId: string, id: string) =>
        get<{ class: Class }>(`${workspace(workspaceId)}/classes/${enc(id)}`),
      rename: (workspaceId: string, id: string, label: string) =>
        patch<{ class: Class }>(`${workspace(workspaceId)}/classes/${enc(id)}`, { label }),
      delete: (workspaceId: string, id: string) =>
        remove(`${workspace(workspaceId)}/classes/${enc(id)}`),
    },
    transactionRules: {
      all: (workspaceId: string) =>
        client.listAll<TransactionRule>(`${workspace(workspaceId)}/transaction-rules`),
      upTo: (workspaceId: string, max: number) =>
        client.listUpTo<TransactionRule>(`${workspace(workspaceId)}/transaction-rules`, {}, max),
      create: (workspaceId: string, body: CreateTransactionRuleBody, idempotencyKey?: string) =>
        post<{ rule: TransactionRule }>(
          `${workspace(workspaceId)}/transaction-rules`,
          body,
          idempotencyKey,
        ),
      get: (workspaceId: string, id: string) =>
        get<{ rule: TransactionRule }>(`${workspace(workspaceId)}/transaction-rules/${enc(id)}`),
      update: (workspaceId: string, id: string, body: UpdateTransactionRuleBody) =>
        patch<{ rule: TransactionRule }>(
          `${workspace(workspaceId)}/transaction-rules/${enc(id)}`,
          body,
        ),
      delete: (workspaceId: string, id: string) =>
        remove(`${workspace(workspaceId)}/transaction-rules/${enc(id)}`),
    },
    accounts: {
      all: (entityId: string) => client.listAll<Account>(`${entity(entityId)}/chart-of-accounts`),
      upTo: (entityId: string, max: number) =>
        client.listUpTo<Account>(`${entity(entityId)}/chart-of-accounts`, {}, max),
      create: (entityId: string, body: CreateAccountBody) =>
        post<{ account: Account }>(`${entity(entityId)}/chart-of-accounts`, body),
      bulkCreate: (entityId: string, accounts: CreateAccountBody[], idempotencyKey?: string) =>
        post<{ data: Account[] }>(
          `${entity(entityId)}/chart-of-accounts/bulk`,
          { accounts },
          idempotencyKey,
        ),
      get: (entityId: string, id: string) =>
        get<{ account: Account }>(`${entity(entityId)}/chart-of-accounts/${enc(id)}`),
      update: (entityId: string, id: string, body: UpdateAccountBody) =>
        patch<{ account: Account }>(`${entity(entityId)}/chart-of-accounts/${enc(id)}`, body),
      disable: (entityId: string, id: string) =>
        post<{ account: Account }>(`${entity(entityId)}/chart-of-accounts/${enc(id)}/disable`),
      enable: (entityId: string, id: string) =>
        post<{ account: Account }>(`${entity(entityId)}/chart-of-accounts/${enc(id)}/enable`),
      merge: (entityId: string, body: MergeAccountsBody) =>
        post<{ account: Account }>(`${entity(entityId)}/chart-of-accounts/merge`, body),
      delete: (entityId: string, id: string) =>
        remove(`${entity(entityId)}/chart-of-accounts/${enc(id)}`),
    },
    accountGroups: {
      all: (entityId: string) => client.listAll<AccountGroup>(`${entity(entityId)}/account-groups`),
      upTo: (entityId: string, max: number) =>
        client.listUpTo<AccountGroup>(`${entity(entityId)}/account-groups`, {}, max),
      create: (entityId: string, body: CreateAccountGroupBody) =>
        post<{ group: AccountGroup }>(`${entity(entityId)}/account-groups`, body),
      get: (entityId: string, id: string) =>
        get<{ group: AccountGroup }>(`${entity(entityId)}/account-groups/${enc(id)}`),
      update: (entityId: string, id: string, body: UpdateAccountGroupBody) =>
        patch<{ group: AccountGroup }>(`${entity(entityId)}/account-groups/${enc(id)}`, body),
      delete: (entityId: string, id: string) =>
        remove(`${entity(entityId)}/account-groups/${enc(id)}`),
    },
    journalEntries: {
      list: (entityId: string, query: ListJournalEntriesQuery) =>
        get<List<JournalEntry>>(`${entity(entityId)}/journal-entries`, query),
      /** Every entry of a range, each once while others write (see journalEntryPages). */
      all: async (
        entityId: string,
        query: Omit<ListJournalEntriesQuery, 'limit' | 'offset'>,
        max?: number,
      ) => (await collectPages(journalEntryList(entityId, query, max))).items,
      /** Page by page, for a command that writes entries as they come. */
      pages: journalEntryList,
      create: (entityId: string, body: CreateJournalEntryBody) =>
        post<{ journalEntry: JournalEntry }>(`${entity(entityId)}/journal-entries`, body),
      bulkCreate: (
        entityId: string,
        journalEntries: CreateJournalEntryBody[],
        idempotencyKey?: string,
      ) =>
        post<{ data: JournalEntry[] }>(
          `${entity(entityId)}/journal-entries/bulk`,
          { journalEntries },
          idempotencyKey,
        ),
      get: (entityId: string, id: string, ledgerBasis?: LedgerBasis) =>
        get<{ journalEntry: JournalEntry }>(`${entity(entityId)}/journal-entries/${enc(id)}`, {
          ledgerBasis,
        }),
      update: (
        entityId: string,
        id: string,
        body: UpdateJournalEntryBody,
        ledgerBasis?: LedgerBasis,
      ) =>
        patch<{ journalEntry: JournalEntry }>(
          `${entity(entityId)}/journal-entries/${enc(id)}`,
          body,
          { ledgerBasis },
        ),
      delete: (entityId: string, id: string, ledgerBasis?: LedgerBasis) =>
        remove(`${entity(entityId)}/journal-entries/${enc(id)}`, { ledgerBasis }),
    },
    accountingMigration: {
      get: (entityId: string) =>
        get<{ accountingMigration: AccountingMigration }>(
          `${entity(entityId)}/accounting-migration`,
        ),
      create: (entityId: string, idempotencyKey?: string) =>
        post<{ accountingMigration: AccountingMigration }>(
          `${entity(entityId)}/accounting-migration`,
          undefined,
          idempotencyKey,
        ),
      generateRules: (entityId: string) =>
        post<{ accountingMigration: AccountingMigration }>(
          `${entity(entityId)}/accounting-migration/generate-transaction-rules`,
        ),
    },
    reports: {
      profitAndLoss: (entityId: string, query: ReportQuery) =>
        get<{ report: ProfitAndLoss }>(`${entity(entityId)}/reports/profit-and-loss`, query),
      balanceSheet: (entityId: string, query: ReportQuery) =>
        get<{ report: BalanceSheet }>(`${entity(entityId)}/reports/balance-sheet`, query),
      cashFlow: (entityId: string, query: ReportQuery) =>
        get<{ report: CashFlow }>(`${entity(entityId)}/reports/cash-flow`, query),
      trialBalance: (entityId: string, query: ReportQuery) =>
        get<{ report: TrialBalance }>(`${entity(entityId)}/reports/trial-balance`, query),
      generalLedger: (entityId: string, query: GeneralLedgerQuery) =>
        get<{ report: GeneralLedger }>(`${entity(entityId)}/reports/general-ledger`, query),
      /** The general ledger of any size as it arrives: account heads, entries, closings. */
      generalLedgerEvents: async (entityId: string, query: GeneralLedgerQuery) => {
        // Lines where the platform writes them (books' own), else the spec's JSON document.
        const { pieces, contentType } = await client.stream(
          `${entity(entityId)}/reports/general-ledger`,
          query as Query,
          `${NDJSON_TYPE}, application/json;q=0.9`,
        );
        return contentType.startsWith(NDJSON_TYPE)
          ? readGeneralLedgerLines(pieces)
          : readGeneralLedger(pieces);
      },
    },
    sandbox: {
      createOrganization: (name: string) =>
        post<CreateOrganizationResponse>('/sandbox/v1/organizations', { name }),
      workspace: (id: string) =>
        get<{ workspace: SandboxWorkspace }>(`/sandbox/v1/workspaces/${enc(id)}`),
      updateWorkspace: (id: string, body: UpdateWorkspaceFlagsBody) =>
        patch<{ workspace: SandboxWorkspace }>(`/sandbox/v1/workspaces/${enc(id)}`, body),
      createEntity: (workspaceId: string, body: CreateEntityBody) =>
        post<{ entity: Entity }>(`/sandbox/v1/workspaces/${enc(workspaceId)}/entities`, body),
      entities: (workspaceId: string) =>
        client.listAll<Entity>(`/sandbox/v1/workspaces/${enc(workspaceId)}/entities`),
      entitiesUpTo: (workspaceId: string, max: number) =>
        client.listUpTo<Entity>(`/sandbox/v1/workspaces/${enc(workspaceId)}/entities`, {}, max),
      entity: (id: string) => get<{ entity: Entity }>(`/sandbox/v1/entities/${enc(id)}`),
      updateEntity: (id: string, body: UpdateEntityBody) =>
        patch<{ entity: Entity }>(`/sandbox/v1/entities/${enc(id)}`, body),
      openAccrualLedger: (id: string) =>
        post<{ entity: Entity }>(`/sandbox/v1/entities/${enc(id)}/ledgers/accrual/open`),
      openingBalances: (id: string, body: CreateOpeningBalanceBody) =>
        post<{ openingBalance: OpeningBalance }>(
          `/sandbox/v1/entities/${enc(id)}/opening-balances`,
          body,
        ),
      recordReconciliation: (
        entityId: string,
        body: CreateReconciliationBody,
        idempotencyKey?: string,
      ) =>
        post<{ reconciliation: Reconciliation }>(
          `/sandbox/v1/entities/${enc(entityId)}/reconciliations`,
          body,
          idempotencyKey,
        ),
      reconciliations: (entityId: string, query: ListReconciliationsQuery = {}) =>
        get<{ data: Reconciliation[] }>(
          `/sandbox/v1/entities/${enc(entityId)}/reconciliations`,
          query as Query,
        ),
      setUpTax: (entityId: string, body: SetUpTaxBody) =>
        post<TaxSetup>(`/sandbox/v1/entities/${enc(entityId)}/tax-setting`, body),
      taxSetting: (entityId: string) =>
        get<TaxSetup>(`/sandbox/v1/entities/${enc(entityId)}/tax-setting`),
      createTaxCode: (entityId: string, body: CreateTaxCodeBody) =>
        post<{ taxCode: TaxCode }>(`/sandbox/v1/entities/${enc(entityId)}/tax-codes`, body),
      updateTaxCode: (entityId: string, code: string, body: UpdateTaxCodeBody) =>
        patch<{ taxCode: TaxCode }>(
          `/sandbox/v1/entities/${enc(entityId)}/tax-codes/${enc(code)}`,
          body,
        ),
      fileTaxReturn: (entityId: string, body: FileTaxReturnBody) =>
        post<{ taxReturn: FiledTaxReturn }>(
          `/sandbox/v1/entities/${enc(entityId)}/tax-returns`,
          body,
        ),
      filedTaxReturns: (entityId: string) =>
        get<{ data: FiledTaxReturn[] }>(`/sandbox/v1/entities/${enc(entityId)}/tax-returns`),
      taxReturn: (entityId: string, query: TaxReturnQuery) =>
        get<TaxReturn>(`/sandbox/v1/entities/${enc(entityId)}/tax-return`, query as Query),
      /** The return with every posting behind each box, read as it arrives (readTaxReturn). */
      taxReturnEvents: async (entityId: string, query: Omit<TaxReturnQuery, 'detail'>) =>
        readTaxReturn(
          (
            await client.stream(
              `/sandbox/v1/entities/${enc(entityId)}/tax-return`,
              { ...(query as Query), detail: true },
              NDJSON_TYPE,
            )
          ).pieces,
        ),
      connectBankFeed: (entityId: string, body: CreateBankFeedConnectionBody) =>
        post<{ connection: BankFeedConnection }>(
          `/sandbox/v1/entities/${enc(entityId)}/bank-feed-connections`,
          body,
        ),
      breakConnection: (connectionId: string, body: BreakConnectionBody) =>
        post<{ connection: BankFeedConnection }>(
          `/sandbox/v1/bank-feed-connections/${enc(connectionId)}/break`,
          body,
        ),
      reconnect: (connectionId: string) =>
        post<{ connection: BankFeedConnection }>(
          `/sandbox/v1/bank-feed-connections/${enc(connectionId)}/reconnect`,
        ),
      pushTransactions: (
        financialAccountId: string,
        body: PushTransactionsBody,
        idempotencyKey?: string,
      ) =>
        post<{ data: BankTransaction[] }>(
          `/sandbox/v1/financial-accounts/${enc(financialAccountId)}/transactions`,
          body,
          idempotencyKey,
        ),
      transactions: (
        workspaceId: string,
        query: Omit<ListTransactionsQuery, 'limit' | 'offset'> = {},
      ) =>
        client.listAll<BankTransaction>(
          `/sandbox/v1/workspaces/${enc(workspaceId)}/transactions`,
          query as Query,
        ),
      bankFeedConnections: (entityId: string) =>
        client.listAll<BankFeedConnection>(
          `/sandbox/v1/entities/${enc(entityId)}/bank-feed-connections`,
        ),
      transactionsUpTo: (
        workspaceId: string,
        max: number,
        query: Omit<ListTransactionsQuery, 'limit' | 'offset'> = {},
      ) =>
        client.listUpTo<BankTransaction>(
          `/sandbox/v1/workspaces/${enc(workspaceId)}/transactions`,
          query as Query,
          max,
        ),
      transaction: (id: string) =>
        get<{ transaction: BankTransaction }>(`/sandbox/v1/transactions/${enc(id)}`),
      /** An entity's for-review queue, oldest first, whole (with suggestions when asked). */
      forReview: (entityId: string, query: ForReviewQuery = {}) =>
        get<{ data: BankTransaction[]; total: number }>(
          `/sandbox/v1/entities/${enc(entityId)}/for-review`,
          query as Query,
        ),
      decide: (transactionId: string, body: DecisionBody, idempotencyKey?: string) =>
        post<DecisionResponse>(
          `/sandbox/v1/transactions/${enc(transactionId)}/decision`,
          body,
          idempotencyKey,
        ),
      decideMany: (entityId: string, body: BulkDecisionBody, idempotencyKey?: string) =>
        post<{ data: DecisionOutcome[] }>(
          `/sandbox/v1/entities/${enc(entityId)}/transaction-decisions`,
          body,
          idempotencyKey,
        ),
      forReviewSummary: (workspaceId: string, query: ForReviewSummaryQuery = {}) =>
        get<{ data: ForReviewSummary[] }>(
          `/sandbox/v1/workspaces/${enc(workspaceId)}/for-review/summary`,
          query as Query,
        ),
      applyRules: (workspaceId: string, body: ApplyRulesBody, idempotencyKey?: string) =>
        post<ApplyRulesResponse>(
          `/sandbox/v1/workspaces/${enc(workspaceId)}/transaction-rules/apply`,
          body,
          idempotencyKey,
        ),
      generatedRules: (entityId: string) =>
        client.listAll<TransactionRule>(`/sandbox/v1/entities/${enc(entityId)}/generated-rules`),
      addFault: (body: CreateFaultBody) => post<{ fault: Fault }>('/sandbox/v1/faults', body),
      clearFaults: () => remove('/sandbox/v1/faults'),
      addWebhookEndpoint: (body: CreateWebhookEndpointBody) =>
        post<CreateWebhookEndpointResponse>('/sandbox/v1/webhook-endpoints', body),
      webhookEndpoints: () => client.listAll<WebhookEndpoint>('/sandbox/v1/webhook-endpoints'),
      webhookEndpointsUpTo: (max: number) =>
        client.listUpTo<WebhookEndpoint>('/sandbox/v1/webhook-endpoints', {}, max),
      webhookEndpoint: (id: string) =>
        get<{ endpoint: WebhookEndpoint }>(`/sandbox/v1/webhook-endpoints/${enc(id)}`),
      removeWebhookEndpoint: (id: string) => remove(`/sandbox/v1/webhook-endpoints/${enc(id)}`),
      rotateWebhookSecret: (id: string) =>
        post<{ secret: string }>(`/sandbox/v1/webhook-endpoints/${enc(id)}/rotate-secret`),
      webhookAttempts: (id: string, max: number) =>
        client.listUpTo<WebhookAttempt>(
          `/sandbox/v1/webhook-endpoints/${enc(id)}/attempts`,
          {},
          max,
        ),
      retryWebhookMessage: (endpointId: string, messageId: string) =>
        post<void>(
          `/sandbox/v1/webhook-endpoints/${enc(endpointId)}/messages/${enc(messageId)}/retry`,
        ),
      recoverWebhookMessages: (endpointId: string, since: string) =>
        post<void>(`/sandbox/v1/webhook-endpoints/${enc(endpointId)}/recover`, { since }),
    },
  };
}

export type BooksApi = ReturnType<typeof booksApi>;
