import { describe, expect, it } from 'vitest';
import '../../../../shared/validation/rules.js';
import { clusterFormSchema, industrialChoices, toBody, toFormValues } from './cluster-form.js';
import type { ClusterConfig } from '../api/clusters.js';

const config: ClusterConfig = {
  cluster: { id: 'c1', label: 'Cluster Allada' },
  industrial: {
    id: 'i1',
    firstname: 'Awa',
    lastname: 'Dossou',
    organization: { id: 'o1', denomination: 'Ananas Export SA' },
  },
  manager: null,
  updatedAt: null,
  cooperatives: ['coop1'],
  growers: ['g1'],
  options: { cooperatives: [], growers: [] },
};

describe('cluster configuration form', () => {
  it('reads the configuration back and sends the spec’s payload', () => {
    const values = toFormValues(config);
    expect(values).toEqual({
      clusterName: 'Cluster Allada',
      industrialUserId: 'i1',
      cooperativeIds: ['coop1'],
      growersId: ['g1'],
    });
    expect(toBody({ ...values, clusterName: ' Cluster Nord ' }, 'm1')).toEqual({
      managerUserId: 'm1',
      clusterName: 'Cluster Nord',
      industrialUserId: 'i1',
      cooperativeIds: ['coop1'],
      growersId: ['g1'],
    });
  });

  it('the aggregator and the name are required', () => {
    const result = clusterFormSchema.safeParse({
      clusterName: ' ',
      industrialUserId: '',
      cooperativeIds: [],
      growersId: [],
    });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(
      result.error!.issues.map((i) => [i.path.join('.'), i.message]),
    );
    expect(messages).toEqual({
      clusterName: 'validation:required',
      industrialUserId: 'validation:required',
    });
  });

  it('keeps a configured aggregator that is no longer offered', () => {
    expect(industrialChoices([], config.industrial)).toEqual([
      { value: 'i1', label: 'Awa Dossou — Ananas Export SA' },
    ]);
  });
});
