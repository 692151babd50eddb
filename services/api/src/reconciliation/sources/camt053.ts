import { XMLParser } from 'fast-xml-parser';
import { ValidationError } from '@filiere/platform';
import type { StatementLine } from '../domain/index.js';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => ['Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd'].includes(name),
});

type Node = Record<string, unknown>;
const at = (node: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (n, key) => (n && typeof n === 'object' ? (n as Node)[key] : undefined),
    node,
  );
const text = (node: unknown): string | null => {
  if (typeof node === 'string') return node.trim() || null;
  if (node && typeof node === 'object' && '#text' in node) return text((node as Node)['#text']);
  return null;
};

/** Our references as the payer writes them on the transfer (APP-…). */
const OUR_REFERENCE = /\b(APP-[A-Z0-9-]+)\b/i;

/**
 * The entries of an ISO 20022 CAMT.053 bank statement (`BkToCstmrStmt/Stmt/Ntry`): booked
 * entries only (`Sts` BOOK, or `Sts/Cd` BOOK in 2019 schemas), amount in whole F CFA (XOF),
 * CRDT money in and DBIT money out, dated by their booking date (`BookgDt/DtTm` or `Dt`). The
 * provider reference is the bank's entry reference (`NtryRef`, else `AcctSvcrRef`, else the
 * transaction's `EndToEndId`); our reference is looked for in the remittance text and the
 * end-to-end id; the account is the debtor's (money in) or creditor's (money out) IBAN or id.
 */
export function parseCamt053(xml: string): StatementLine[] {
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch {
    throw new ValidationError('Relevé CAMT.053 illisible');
  }
  const statements = at(doc, 'Document', 'BkToCstmrStmt', 'Stmt');
  if (!Array.isArray(statements)) throw new ValidationError('Relevé CAMT.053 illisible');
  const lines: StatementLine[] = [];
  for (const stmt of statements) {
    for (const entry of (at(stmt, 'Ntry') as unknown[] | undefined) ?? []) {
      const status = text(at(entry, 'Sts')) ?? text(at(entry, 'Sts', 'Cd'));
      if (status !== null && status !== 'BOOK') continue;
      const amountNode = at(entry, 'Amt');
      const currency = text(at(amountNode, '@Ccy'));
      if (currency !== null && currency !== 'XOF') {
        throw new ValidationError('Seuls les relevés en F CFA (XOF) sont acceptés');
      }
      const amount = Number(text(amountNode));
      if (!Number.isSafeInteger(amount) || amount < 0) {
        throw new ValidationError('Montant invalide dans le relevé');
      }
      const direction = text(at(entry, 'CdtDbtInd')) === 'DBIT' ? 'OUT' : 'IN';
      const when =
        text(at(entry, 'BookgDt', 'DtTm')) ??
        (text(at(entry, 'BookgDt', 'Dt'))
          ? `${text(at(entry, 'BookgDt', 'Dt'))}T12:00:00+01:00`
          : null);
      if (when === null || Number.isNaN(Date.parse(when))) {
        throw new ValidationError('Date de comptabilisation manquante dans le relevé');
      }
      const tx = at(entry, 'NtryDtls', '0', 'TxDtls', '0');
      const endToEnd = text(at(tx, 'Refs', 'EndToEndId'));
      const providerReference =
        text(at(entry, 'NtryRef')) ?? text(at(entry, 'AcctSvcrRef')) ?? endToEnd;
      if (providerReference === null) {
        throw new ValidationError('Une écriture du relevé n’a pas de référence');
      }
      const remittance = ((at(tx, 'RmtInf', 'Ustrd') as unknown[] | undefined) ?? [])
        .map(text)
        .join(' ');
      const reference =
        OUR_REFERENCE.exec(remittance)?.[1]?.toUpperCase() ??
        (endToEnd && OUR_REFERENCE.test(endToEnd)
          ? OUR_REFERENCE.exec(endToEnd)![1]!.toUpperCase()
          : null);
      const party = direction === 'IN' ? 'DbtrAcct' : 'CdtrAcct';
      const account =
        text(at(tx, 'RltdPties', party, 'Id', 'IBAN')) ??
        text(at(tx, 'RltdPties', party, 'Id', 'Othr', 'Id'));
      lines.push({
        source: 'BANK',
        providerReference,
        reference,
        direction,
        amount,
        account,
        occurredAt: new Date(when).toISOString(),
      });
    }
  }
  return lines;
}
