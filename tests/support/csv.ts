/** CSV read back as a spreadsheet does (RFC 4180): quoted fields, doubled quotes, commas and line breaks inside quotes, CRLF rows. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let [row, cell, quoted] = [[] as string[], '', false]
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++
      else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"') quoted = true
    else if (c === ',') row.push(cell), (cell = '')
    else if (c === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++
    else cell += c
  }
  return rows
}
