import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.js';

/** The routes `GET/POST /api/contracts/terms` (services/api/src/contracts/documents/http). */
export interface Clause {
  title: string;
  body: string;
}

export interface TermsVersion {
  version: number;
  clauses: Clause[];
  publishedBy: { id: string; firstname: string; lastname: string } | null;
  publishedAt: string | null;
}

export interface TermsAnswer {
  versions: TermsVersion[];
  placeholders: { name: string; description: string }[];
}

export const termsQuery = queryOptions({
  queryKey: ['contracts', 'terms'] as const,
  queryFn: () => api<TermsAnswer>('/contracts/terms'),
});

export const publishTerms = (clauses: Clause[]) =>
  api<{ version: number }>('/contracts/terms', { method: 'POST', body: { clauses } });
