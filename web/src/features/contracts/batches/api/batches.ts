import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ApiError, NetworkError } from '../../../../shared/api/api-error.js';
import { api, apiResponse, buildUrl, command } from '../../../../shared/api/client.js';
import type { IdempotencyKey } from '../../../../shared/api/idempotency.js';
import type { ApiResponse, RowOf } from '../../../../shared/api/types.js';
import { getToken } from '../../../../shared/auth/session.js';
import { PAGE_SIZE } from '../../../../shared/search/list-search.js';

/**
 * 'Create many' (LIVRAISON_PARENT, services/api/src/contracts/batches): a file or selected
 * growers → a preview (nothing created) → 'Valider' (a money command: it places the holds,
 * so it carries an Idempotency-Key) → one parent and a sub-contract per grower.
 */

/** A problem of the file: its line (1 = header; 0 = the whole file), column and reason. */
export interface FileProblem {
  line: number;
  column: string;
  reason: string;
}

export type PreviewSummary = ApiResponse<'/api/contracts/batches/from-growers', 'post'>;
type Preview = ApiResponse<'/api/contracts/batches/{previewId}'>;
export type PreviewRow = RowOf<Preview>;
export type ParentAnswer = ApiResponse<'/api/contracts/batches/{previewId}/validate', 'post'>;
export type ParentRow = RowOf<ApiResponse<'/api/contracts/smarts/{userId}/LIVRAISON_PARENT'>>;
type SubContracts = ApiResponse<'/api/contracts/sub-smarts/{parentId}'>;
export type SubContractRow = RowOf<SubContracts>;
export type ParentHeader = SubContracts['parent'];

/** The file was refused: every problem, for the table of errors. */
export class FileRefusedError extends Error {
  constructor(
    message: string,
    readonly problems: FileProblem[],
  ) {
    super(message);
    this.name = 'FileRefusedError';
  }
}

const problemsOf = (error: unknown): never => {
  if (error instanceof ApiError && Array.isArray(error.data.problems)) {
    throw new FileRefusedError(error.message, error.data.problems as FileProblem[]);
  }
  throw error;
};

export const batchKeys = {
  all: ['contracts', 'batches'] as const,
  preview: (id: string, page: number) => ['contracts', 'batches', 'preview', id, page] as const,
  parents: (userId: string, page: number, q?: string) =>
    ['contracts', 'batches', 'parents', userId, page, q ?? ''] as const,
  subs: (parentId: string, page: number, q?: string, filter?: string) =>
    ['contracts', 'batches', 'subs', parentId, page, q ?? '', filter ?? 'all'] as const,
};

/** `POST contracts/batches/preview` (multipart, field `file`). */
export async function uploadContractFile(file: File): Promise<PreviewSummary> {
  const body = new FormData();
  body.append('file', file, file.name);
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(buildUrl('/contracts/batches/preview'), {
      method: 'POST',
      headers,
      body,
    });
  } catch {
    throw new NetworkError(false);
  }
  const payload = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.ok) return payload as unknown as PreviewSummary;
  const message = typeof payload.message === 'string' ? payload.message : response.statusText;
  if (Array.isArray(payload.problems)) {
    throw new FileRefusedError(message, payload.problems as FileProblem[]);
  }
  throw new ApiError(response.status, message, undefined, undefined, payload);
}

/** `POST contracts/batches/from-growers`: selected growers → a preview. */
export async function previewFromGrowers(
  rows: {
    growerId: string;
    productId?: string | undefined;
    quantity: string;
    amount: number;
    deliveryDate?: string | undefined;
  }[],
): Promise<PreviewSummary> {
  return api<PreviewSummary>('/contracts/batches/from-growers', {
    method: 'POST',
    body: { rows },
  }).catch(problemsOf);
}

export const previewQuery = (previewId: string, page: number) =>
  queryOptions({
    queryKey: batchKeys.preview(previewId, page),
    queryFn: () =>
      api<Preview>(`/contracts/batches/${encodeURIComponent(previewId)}`, {
        query: { page, limit: PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });

/** 'Valider': the parent and its sub-contracts (422 with `missingAmount` when short). */
export function validatePreview(previewId: string, key: IdempotencyKey): Promise<ParentAnswer> {
  return command<ParentAnswer>(`/contracts/batches/${encodeURIComponent(previewId)}/validate`, key);
}

export const parentsQuery = (userId: string, page: number, q?: string) =>
  queryOptions({
    queryKey: batchKeys.parents(userId, page, q),
    queryFn: () =>
      api<ApiResponse<'/api/contracts/smarts/{userId}/LIVRAISON_PARENT'>>(
        `/contracts/smarts/${encodeURIComponent(userId)}/LIVRAISON_PARENT`,
        { query: { page, limit: PAGE_SIZE, q } },
      ),
    placeholderData: keepPreviousData,
  });

export const subContractsQuery = (parentId: string, page: number, q?: string, filter?: string) =>
  queryOptions({
    queryKey: batchKeys.subs(parentId, page, q, filter),
    queryFn: () =>
      api<SubContracts>(`/contracts/sub-smarts/${encodeURIComponent(parentId)}`, {
        query: { page, limit: PAGE_SIZE, q, filters: filter ?? 'all' },
      }),
    placeholderData: keepPreviousData,
    // Right after 'Valider' the parent (its own projection) may show before its sub-contracts
    // (the contracts projection): the contracts projector's `contracts.updated` push refetches
    // the list, even when it arrives during the page's first read (shared/realtime/apply-push.ts).
  });

/** The template (.xlsx or .csv), with the selected growers' references when given. */
export async function downloadTemplate(format: 'xlsx' | 'csv', growerIds: string[] = []) {
  const response = await apiResponse('/contracts/batches/template', {
    query: { format, growerIds: growerIds.length ? growerIds.join(',') : undefined },
    accept: '*/*',
  });
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = `modele-contrats-livraison.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
