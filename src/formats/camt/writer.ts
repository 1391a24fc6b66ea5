import { absCents, addCents, formatCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import { isIban, type BankStatement } from '../statement.js';

/*
 * Bank statements written as ISO 20022 camt.053.001.08 (BankToCustomerStatementV08), as a bank
 * sends the statement of a month: its group header, then per statement the account, the period,
 * the booked opening (OPBD) and closing (CLBD) balances, the entries' summary, and each entry
 * with its status, booking and value days, the bank's reference, the other party and the text.
 * What `books demo` gives its bakery, for the reconciliation it shows; read back by reader.ts.
 */

const NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08';
/** The longest texts the schema allows: a name, an unstructured remittance line. */
const NAME_MAX = 140;
const TEXT_MAX = 140;

const xml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
const cut = (text: string, length: number) => [...text].slice(0, length).join('');
const amount = (cents: Cents) => formatCents(absCents(cents), { thousands: false });
const side = (cents: Cents) => (cents < 0 ? 'DBIT' : 'CRDT');

export interface CamtMessage {
  /** The message's id (`MsgId`) and when it was made (`CreDtTm`, ISO 8601). */
  messageId: string;
  createdAt: string;
}

/** The statements as one camt.053.001.08 message. */
export function camt053(statements: readonly BankStatement[], message: CamtMessage): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Document xmlns="${NAMESPACE}">`,
    '  <BkToCstmrStmt>',
    `    <GrpHdr><MsgId>${xml(message.messageId)}</MsgId><CreDtTm>${message.createdAt}</CreDtTm></GrpHdr>`,
  ];
  statements.forEach((statement, index) => {
    const currency = statement.currency ?? 'EUR';
    const account = statement.account ?? '';
    const booked = statement.entries.filter((e) => e.status === 'booked');
    let net = ZERO_CENTS;
    for (const entry of booked) net = addCents(net, entry.amount);
    const balance = (code: string, cents: Cents | null, day: string | null) =>
      cents === null || day === null
        ? []
        : [
            `      <Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="${currency}">${amount(cents)}</Amt><CdtDbtInd>${side(cents)}</CdtDbtInd><Dt><Dt>${day}</Dt></Dt></Bal>`,
          ];
    lines.push(
      '    <Stmt>',
      `      <Id>${xml(`${message.messageId}-${index + 1}`)}</Id>`,
      `      <ElctrncSeqNb>${index + 1}</ElctrncSeqNb>`,
      `      <CreDtTm>${message.createdAt}</CreDtTm>`,
      ...(statement.from && statement.to
        ? [
            `      <FrToDt><FrDtTm>${statement.from}T00:00:00</FrDtTm><ToDtTm>${statement.to}T23:59:59</ToDtTm></FrToDt>`,
          ]
        : []),
      `      <Acct><Id>${isIban(account) ? `<IBAN>${account}</IBAN>` : `<Othr><Id>${xml(account)}</Id></Othr>`}</Id><Ccy>${currency}</Ccy></Acct>`,
      ...balance('OPBD', statement.opening, statement.from),
      ...balance('CLBD', statement.closing, statement.to),
      `      <TxsSummry><TtlNtries><NbOfNtries>${statement.entries.length}</NbOfNtries><TtlNetNtry><Amt>${amount(net)}</Amt><CdtDbtInd>${side(net)}</CdtDbtInd></TtlNetNtry></TtlNtries></TxsSummry>`,
    );
    for (const entry of statement.entries) {
      const party = entry.counterparty
        ? `<RltdPties><${entry.amount < 0 ? 'Cdtr' : 'Dbtr'}><Pty><Nm>${xml(cut(entry.counterparty, NAME_MAX))}</Nm></Pty></${entry.amount < 0 ? 'Cdtr' : 'Dbtr'}></RltdPties>`
        : '';
      lines.push(
        '      <Ntry>',
        `        <Amt Ccy="${currency}">${amount(entry.amount)}</Amt><CdtDbtInd>${side(entry.amount)}</CdtDbtInd>`,
        `        <Sts><Cd>${entry.status === 'booked' ? 'BOOK' : entry.status === 'pending' ? 'PDNG' : 'INFO'}</Cd></Sts>`,
        `        <BookgDt><Dt>${entry.bookingDate}</Dt></BookgDt><ValDt><Dt>${entry.valueDate ?? entry.bookingDate}</Dt></ValDt>`,
        ...(entry.reference ? [`        <AcctSvcrRef>${xml(entry.reference)}</AcctSvcrRef>`] : []),
        `        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${entry.amount < 0 ? 'ICDT' : 'RCDT'}</Cd><SubFmlyCd>OTHR</SubFmlyCd></Fmly></Domn></BkTxCd>`,
        `        <NtryDtls><TxDtls>${party}<RmtInf><Ustrd>${xml(cut(entry.description, TEXT_MAX))}</Ustrd></RmtInf></TxDtls></NtryDtls>`,
        '      </Ntry>',
      );
    }
    lines.push('    </Stmt>');
  });
  lines.push('  </BkToCstmrStmt>', '</Document>', '');
  return lines.join('\n');
}
