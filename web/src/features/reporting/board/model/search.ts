import { z } from 'zod';
import { listSearch } from '../../../../shared/search/list-search.js';

/** The reporting board's URL state: the cluster ('Tout': none), the growers' search and page. */
export const reportingSearch = listSearch({
  clusterId: z.guid().optional().catch(undefined),
});

export type ReportingSearch = z.infer<typeof reportingSearch>;
