/** A cell for CSV: quoted when needed, and never read as a formula by a spreadsheet. */
function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(rows: string[][]): string {
  return `\uFEFF${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** Downloads rows as "<name>.csv" (built in the browser: the numbers are the ones on screen). */
export function downloadCsv(name: string, rows: string[][]): void {
  const safe = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim();
  const url = URL.createObjectURL(new Blob([toCsv(rows)], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${/[^_.\s]/.test(safe) ? safe : 'widget'}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
