/** Reading back the CSV files FieldDesk writes, as a spreadsheet would. */

/** RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') [field, i] = [field + '"', i + 1];
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') [row, field] = [[...row, field], ''];
    else if (c === '\r' && text[i + 1] === '\n') {
      rows.push([...row, field]);
      [row, field, i] = [[], '', i + 1];
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
