import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { enumParam, listQuery, listSearch, pageParams, textParam } from './list-search.js';

describe('the URL state of a list', () => {
  const search = listSearch({
    status: enumParam(['OPEN', 'DONE'] as const),
    region: textParam,
    year: z.coerce.number().int().optional().catch(undefined),
  });

  it('keeps good values, the screen’s own included', () => {
    expect(
      search.parse({ page: '3', q: ' ananas ', status: 'DONE', region: 'Zou', year: '2026' }),
    ).toEqual({ page: 3, q: 'ananas', status: 'DONE', region: 'Zou', year: 2026 });
  });

  it('reads bad values as absent instead of failing the page', () => {
    expect(search.parse({ page: '0', q: '  ', status: 'NOPE', region: '' })).toEqual({});
    expect(search.parse({ page: 'abc' })).toEqual({});
  });

  it('asks the API for one page of ten, page 1 by default', () => {
    expect(listQuery({ q: 'x' })).toEqual({ page: 1, q: 'x', status: undefined });
    expect(pageParams(listQuery({ page: 2, status: 'OPEN' }))).toEqual({
      page: 2,
      limit: 10,
      q: undefined,
      status: 'OPEN',
    });
  });
});
