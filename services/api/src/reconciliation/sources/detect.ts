/** The bank statement files the import reads. */
export const STATEMENT_FORMATS = ['MT940', 'CAMT053', 'CSV'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

/**
 * A statement's format from its content: XML is CAMT.053; a file whose first tags are
 * MT940's (`:20:` then `:25:`, with or without the SWIFT `{1:}` blocks) is MT940; anything
 * else is read as CSV with the bank's mapping.
 */
export function detectStatementFormat(content: string): StatementFormat {
  const head = content.replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('<')) return 'CAMT053';
  if (/(^|\n|\{4:\s*\n?):20:[^\n]*\r?\n(:21:[^\n]*\r?\n)?:25:/.test(head.slice(0, 4000))) {
    return 'MT940';
  }
  return 'CSV';
}
