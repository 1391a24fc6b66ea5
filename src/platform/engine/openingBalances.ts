import { randomUUID } from 'node:crypto';
import type { CreateOpeningBalanceBody, LedgerBasis, OpeningBalance } from '../../api/index.js';
import { LEDGER_BASES } from '../../api/index.js';
import { centsToAmount } from '../../core/money.js';
import { isInClosedPeriod } from '../domain/accounts.js';
import { conflict } from '../domain/errors.js';
import { validateLines } from '../domain/journalEntries.js';
import type { Store } from '../store/index.js';
import type { EntityService } from './entities.js';

/**
 * Opening balances (sandbox control plane): balanced lines posted on both ledgers with
 * `sourceType` `opening_balance`. An entity may receive several; each adds to the others.
 */
export class OpeningBalanceService {
  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
  ) {}

  create(organizationId: string, entityId: string, body: CreateOpeningBalanceBody): OpeningBalance {
    const { entity } = this.entities.scope(organizationId, entityId);
    if (isInClosedPeriod(body.date, entity.lockDate)) {
      throw conflict(`date ${body.date} is on or before the lock date ${entity.lockDate}`);
    }
    const accounts = new Map(this.store.accounts.all(entityId).map((a) => [a.id, a]));
    const lines = validateLines(
      body.lines.map((line) => ({ ...line, description: 'Opening balance' })),
      { account: (id) => accounts.get(id), classRoot: () => undefined },
    );
    const openingBalance = {
      id: randomUUID(),
      entityId,
      date: body.date,
      createdAt: new Date().toISOString(),
    };
    this.store.transaction(() => {
      this.store.openingBalances.insert(openingBalance);
      for (const ledgerBasis of LEDGER_BASES as readonly LedgerBasis[]) {
        this.store.postings.insert(
          {
            entityId,
            ledgerBasis,
            day: body.date,
            sourceType: 'opening_balance',
            sourceId: openingBalance.id,
          },
          lines,
        );
      }
    });
    return {
      ...openingBalance,
      lines: lines.map((line) => ({
        accountId: line.accountId,
        debitAmount: line.debitCents > 0 ? centsToAmount(line.debitCents) : null,
        creditAmount: line.creditCents > 0 ? centsToAmount(line.creditCents) : null,
      })),
    };
  }
}
