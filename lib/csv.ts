// CSV as exports write it (the conversation export, the audit log, leads): RFC 4180 fields, formulas defused (OWASP).

const FORMULA_START = /^[=+\-@\t\r]/

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. Text that a spreadsheet would take
 * for a formula is prefixed with "'"; numbers are written as they are.
 */
export function csvField(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value)
  if (typeof value === 'string' && FORMULA_START.test(s)) s = `'${s}`
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}
