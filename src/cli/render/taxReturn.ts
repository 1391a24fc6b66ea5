import type { TaxReturn } from '../../api/index.js';
import { csvField } from '../../core/csv.js';
import { plainAmount, type Statement, type StatementRow } from './statements.js';

/**
 * A VAT return as a statement of the pack's kind (a workbook sheet, PDF pages): whether it ties,
 * then each box with the amount the form takes, and with `--detail` every posting behind a box
 * under it (its date, account, code and text, its net; the value its VAT).
 */
export function taxReturnStatement(taxReturn: TaxReturn): Statement {
  const rows: StatementRow[] = [];
  const row = (label: string, depth: number, kind: StatementRow['kind'], value: number | null) =>
    rows.push({ label, depth, kind, values: [value], section: 'vat' });
  const net = taxReturn.net;
  row(
    taxReturn.ties
      ? `Ties to the VAT accounts (they moved ${plainAmount(taxReturn.vatAccountsMovement)})`
      : `Does not tie: the VAT accounts moved ${plainAmount(taxReturn.vatAccountsMovement)}, the coded postings declare ${plainAmount(taxReturn.declaredVat)}`,
    0,
    'heading',
    null,
  );
  for (const box of taxReturn.boxes) {
    row(`${box.box} ${box.label}`, 0, 'line', box.formAmount);
    for (const posting of box.postings ?? [])
      row(
        `${posting.date} ${posting.accountCode} ${posting.accountName} "${posting.description}" (${posting.taxCode ?? 'no code'}), net ${plainAmount(posting.net)}`,
        2,
        'line',
        posting.vat,
      );
  }
  row(net >= 0 ? 'To pay' : 'To reclaim', 0, 'total', Math.abs(net));
  if (taxReturn.uncoded.length > 0)
    row(
      `${taxReturn.uncoded.length} income or expense ${taxReturn.uncoded.length === 1 ? 'line carries' : 'lines carry'} no tax code`,
      0,
      'line',
      null,
    );
  const period = { startDate: taxReturn.startDate, endDate: taxReturn.endDate };
  return {
    title: `${taxReturn.country} VAT Return`,
    subtitle: `${taxReturn.startDate} to ${taxReturn.endDate}, ${taxReturn.basis} basis`,
    columns: ['Amount'],
    rows,
    tidy: {
      periods: [period],
      rows: rows.map((r) => ({ section: r.section, code: '', name: r.label, values: r.values })),
    },
  };
}

/** A return as CSV: a row per box, or with `--detail` a row per posting behind each box. */
export function taxReturnCsv(taxReturn: TaxReturn, detail: boolean): string {
  const lines = detail
    ? [
        'box,date,entry,account_code,account_name,tax_code,description,net,vat',
        ...taxReturn.boxes.flatMap((box) =>
          (box.postings ?? []).map((p) =>
            [
              box.box,
              p.date,
              p.journalEntryId,
              p.accountCode,
              p.accountName,
              p.taxCode ?? '',
              p.description,
              plainAmount(p.net),
              plainAmount(p.vat),
            ]
              .map(csvField)
              .join(','),
          ),
        ),
      ]
    : [
        'box,label,amount,form_amount',
        ...taxReturn.boxes.map((box) =>
          [box.box, box.label, plainAmount(box.amount), plainAmount(box.formAmount)]
            .map(csvField)
            .join(','),
        ),
      ];
  return `${lines.join('\n')}\n`;
}
