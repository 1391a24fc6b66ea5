import { createWriteStream, statSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { it } from 'vitest';
import { timed } from '../helpers/benchProcesses.js';
import { temporaryHome } from '../helpers/cli.js';

const LINES = Number(process.env.BENCH_SAFT_LINES ?? 1_000_000);

/** A SAF-T Financial file of LINES lines: transactions of two lines over a year, its totals stated. */
async function writeSaft(file: string): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const transactions = LINES / 2;
  // Amounts of 1.00 to 900.00, by a fixed walk: the totals are known before writing.
  const cents = (i: number) => 100 + ((i * 7919) % 89_901);
  let total = 0;
  for (let i = 1; i <= transactions; i += 1) total += cents(i);
  const amount = (c: number) => `${Math.trunc(c / 100)}.${String(c % 100).padStart(2, '0')}`;
  await write(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<n1:AuditFile xmlns:n1="urn:StandardAuditFile-Taxation-Financial:NO">',
      '<n1:Header><n1:AuditFileVersion>1.0</n1:AuditFileVersion><n1:SelectionCriteria><n1:PeriodStart>1</n1:PeriodStart><n1:PeriodStartYear>2025</n1:PeriodStartYear><n1:PeriodEnd>12</n1:PeriodEnd><n1:PeriodEndYear>2025</n1:PeriodEndYear></n1:SelectionCriteria></n1:Header>',
      '<n1:MasterFiles><n1:GeneralLedgerAccounts>',
      '<n1:Account><n1:AccountID>1920</n1:AccountID><n1:AccountDescription>Bankinnskudd</n1:AccountDescription><n1:StandardAccountID>19</n1:StandardAccountID><n1:OpeningDebitBalance>0</n1:OpeningDebitBalance></n1:Account>',
      '<n1:Account><n1:AccountID>3000</n1:AccountID><n1:AccountDescription>Salgsinntekt</n1:AccountDescription><n1:StandardAccountID>30</n1:StandardAccountID><n1:OpeningCreditBalance>0</n1:OpeningCreditBalance></n1:Account>',
      '</n1:GeneralLedgerAccounts></n1:MasterFiles>',
      `<n1:GeneralLedgerEntries><n1:NumberOfEntries>${transactions}</n1:NumberOfEntries><n1:TotalDebit>${amount(total)}</n1:TotalDebit><n1:TotalCredit>${amount(total)}</n1:TotalCredit>`,
      '<n1:Journal><n1:JournalID>GL</n1:JournalID><n1:Description>Salg</n1:Description><n1:Type>GL</n1:Type>',
      '',
    ].join('\n'),
  );
  for (let i = 1; i <= transactions; i += 1) {
    const day = new Date(Date.UTC(2025, 0, 1) + Math.floor((i * 364) / transactions) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const value = amount(cents(i));
    await write(
      `<n1:Transaction><n1:TransactionID>${i}</n1:TransactionID><n1:TransactionDate>${day}</n1:TransactionDate><n1:Description>Kvittering ${i}</n1:Description>` +
        `<n1:Line><n1:RecordID>1</n1:RecordID><n1:AccountID>1920</n1:AccountID><n1:Description>Kvittering ${i}</n1:Description><n1:DebitAmount><n1:Amount>${value}</n1:Amount></n1:DebitAmount></n1:Line>` +
        `<n1:Line><n1:RecordID>2</n1:RecordID><n1:AccountID>3000</n1:AccountID><n1:Description>Kvittering ${i}</n1:Description><n1:CreditAmount><n1:Amount>${value}</n1:Amount></n1:CreditAmount></n1:Line></n1:Transaction>\n`,
    );
  }
  await write('</n1:Journal></n1:GeneralLedgerEntries></n1:AuditFile>\n');
  await new Promise((resolve) => out.end(resolve));
}

/**
 * `je import --dry-run` of a generated SAF-T file of LINES lines (1,000,000 unless
 * BENCH_SAFT_LINES): the whole file read, checked against its totals, and planned, sending
 * nothing. Prints seconds and peak RSS (the target: under 200 MB). Asserts nothing.
 */
it(`je import --dry-run: a ${LINES.toLocaleString('en-US')}-line SAF-T file`, async () => {
  const home = temporaryHome();
  try {
    const file = path.join(home.home, 'SAF-T.xml');
    await writeSaft(file);
    console.log(
      `SAF-T: ${LINES.toLocaleString('en-US')} lines, ${(statSync(file).size / 1e6).toFixed(0)} MB`,
    );
    for (let run = 1; run <= 2; run += 1) {
      const result = timed(['je', 'import', file, '--dry-run'], home.env);
      console.log(
        `run ${run}: ${result.seconds.toFixed(1)} s, peak RSS ${result.peakRssMb.toFixed(0)} MB`,
      );
    }
  } finally {
    home.cleanup();
  }
});
