import { BusinessRuleError, type Config } from '@filiere/platform';
import type { Source, StatementLine } from '../domain/index.js';
import { fetchFedapayDay } from './fedapay.js';

/**
 * A source's statement of a day from its API: FedaPay's lists when its secret key is set;
 * null for a source that has no API (the bank and KKiaPay send files: KKiaPay publishes no
 * list of transactions, its dashboard exports a CSV read with a saved column mapping).
 */
export function statementFetcher(config: Config) {
  return async (source: Source, day: string): Promise<StatementLine[] | null> => {
    if (source !== 'FEDAPAY' || !config.FEDAPAY_SECRET_KEY) return null;
    return fetchFedapayDay(
      { baseUrl: config.FEDAPAY_BASE_URL, secretKey: config.FEDAPAY_SECRET_KEY },
      day,
    );
  };
}

/** For the route: refuses a source whose statement comes as a file. */
export async function fetchOrRefuse(config: Config, source: Source, day: string) {
  const lines = await statementFetcher(config)(source, day);
  if (lines === null) {
    throw new BusinessRuleError(
      source === 'FEDAPAY'
        ? 'FedaPay n’est pas configuré (clé secrète absente)'
        : 'Cette source n’a pas d’API : importez son relevé',
      { reason: 'NO_STATEMENT_API' },
    );
  }
  return lines;
}
