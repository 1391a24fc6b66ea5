import { createWriteStream } from 'node:fs';

/**
 * A books CSV of `entries` card sales of four lines each (sales, sales tax, the bank's net, the
 * card fee), in date order over 2023–2025, written as a stream (a million lines is 66 MB): what
 * the import benches send. `mark` begins each entry's number and description.
 */
export async function writeSalesLedger(
  file: string,
  entries: number,
  mark: { entry: string; description: string } = { entry: 'E', description: 'SQ *ORDER' },
): Promise<void> {
  const out = createWriteStream(file);
  const write = (text: string) =>
    out.write(text)
      ? Promise.resolve()
      : new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await write('entry,date,account,account_type,debit,credit,description\n');
  for (let i = 1; i <= entries; i += 1) {
    const day = new Date(Date.UTC(2023, 0, 1) + Math.floor((i * 1095) / (entries + 1)) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const a = (100 + ((i * 7919) % 90_000)) / 100;
    const b = (100 + ((i * 104_729) % 40_000)) / 100;
    const total = ((Math.round(a * 100) + Math.round(b * 100)) / 100).toFixed(2);
    const entry = `${mark.entry}${i}`;
    const text = `${mark.description} ${i}`;
    await write(
      `${entry},${day},Sales,Income,,${a.toFixed(2)},${text}\n` +
        `${entry},${day},Sales Tax,Other Current Liabilities,,${b.toFixed(2)},${text}\n` +
        `${entry},${day},Checking,Cash,${(Number(total) - 1).toFixed(2)},,${text}\n` +
        `${entry},${day},Card Fees,Operating Expenses,1.00,,${text}\n`,
    );
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}
