import { newId } from './ids.js';
import type { CreateOpeningBalanceBody, LedgerBasis, OpeningBalance } from '../../api/index.js';
import { LEDGER_BASES } from '../../api/index.js';
import { centsToAmount } from '../../core/money.js';
import { isInClosedPeriod } from '../domain/accounts.js';
import { conflict } from '../domain/errors.js';
import { validateLines } from '../domain/journalEntries.js';
import type { Store } from '../store/index.js';
import { SOURCE_KIND } from '../store/postings.js';
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

  async create(
    organizationId: string,
    entityId: string,
    body: CreateOpeningBalanceBody,
  ): Promise<OpeningBalance> {
    return this.store.transaction(async () => {
      const { entity, entitySeq } = await this.entities.lockedScope(organizationId, entityId);
      if (isInClosedPeriod(body.date, entity.lockDate)) {
        throw conflict(`date ${body.date} is on or before the lock date ${entity.lockDate}`);
      }
      const accounts = new Map(
        (
          await this.store.accounts.byIds(
            entityId,
            body.lines.map((line) => line.accountId),
          )
        ).map((a) => [a.id, a]),
      );
      const lines = validateLines(
        body.lines.map((line) => ({ ...line, description: 'Opening balance' })),
        { account: (id) => accounts.get(id), classRoot: () => undefined },
      ).map((line) => ({ ...line, accountSeq: accounts.get(line.accountId)!.seq }));
      const openingBalance = {
        id: newId(),
        entityId,
        date: body.date,
        createdAt: new Date().toISOString(),
      };
      const seq = await this.store.openingBalances.insert(openingBalance);
      await this.store.postings.insert(
        (LEDGER_BASES as readonly LedgerBasis[]).map((ledgerBasis) => ({
          source: {
            entitySeq,
            ledgerBasis,
            day: body.date,
            sourceKind: SOURCE_KIND.openingBalance,
            sourceSeq: seq,
            sourceType: 'opening_balance' as const,
          },
          lines,
        })),
      );
      return {
        ...openingBalance,
        lines: lines.map((line) => ({
          accountId: line.accountId,
          debitAmount: line.debitCents > 0 ? centsToAmount(line.debitCents) : null,
          creditAmount: line.creditCents > 0 ? centsToAmount(line.creditCents) : null,
        })),
      };
    });
  }
}
