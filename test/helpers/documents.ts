import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** A PDF's text, page by page, as a reader's tool gets it. */
export async function pdfText(file: string): Promise<string[]> {
  const document = await getDocument({
    data: new Uint8Array(readFileSync(file)),
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join('\n'));
  }
  await document.destroy();
  return pages;
}

/** A workbook's sheet as rows of cell values. */
export async function sheetRows(file: string, sheet: string): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const rows: unknown[][] = [];
  workbook.getWorksheet(sheet)!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}
