/** The wire contract of the Bookkeeping Platform API and the sandbox control plane. */
export * from './common.js';
export * from './protocol.js';
export * from './workspaces.js';
export * from './classes.js';
export * from './transactionRules.js';
export * from './sandbox.js';
export * from './accounts.js';
export * from './journalEntries.js';
export * from './bankFeeds.js';
export * from './reports.js';
export * from './migrations.js';
export * from './webhooks.js';
export * from './decisions.js';
export * from './reconciliations.js';
export * from './tax.js';
