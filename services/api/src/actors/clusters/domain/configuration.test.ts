import { describe, expect, it } from 'vitest';
import { ConflictError, ForbiddenError, ValidationError } from '@filiere/platform';
import {
  clusterToConfigure,
  decideConfiguration,
  mayReadCluster,
  type Candidate,
  type ConfigurationState,
} from './configuration.js';

const CLUSTER = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const MANAGER = '00000000-0000-4000-8000-00000000000a';
const AGGREGATOR = '00000000-0000-4000-8000-00000000000b';

const given = (over: Partial<ConfigurationState> = {}): ConfigurationState => ({
  clusterId: CLUSTER,
  label: 'Cluster Allada',
  industrialUserId: null,
  industrialValid: true,
  cooperatives: new Map(),
  growers: new Map(),
  ...over,
});
const candidates = (...rows: Candidate[]) => new Map(rows.map((r) => [r.id, r]));
const request = (over: Partial<Parameters<typeof decideConfiguration>[1]> = {}) => ({
  clusterName: 'Cluster Allada Nord',
  industrialUserId: AGGREGATOR,
  cooperativeIds: [],
  growersId: [],
  ...over,
});

describe('who configures a cluster', () => {
  it('given a cluster manager of a cluster, when it configures, then it is its own cluster', () => {
    expect(
      clusterToConfigure({ id: MANAGER, role: 'ROLE_CLUSTER_MANAGER', clusterId: CLUSTER }),
    ).toBe(CLUSTER);
    expect(
      clusterToConfigure(
        { id: MANAGER, role: 'ROLE_SFD', clusterId: CLUSTER },
        MANAGER, // managerUserId = itself
      ),
    ).toBe(CLUSTER);
  });

  it('given a manager without cluster, then 403 NO_CLUSTER with a French message', () => {
    try {
      clusterToConfigure({ id: MANAGER, role: 'ROLE_CLUSTER_MANAGER', clusterId: null });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ForbiddenError);
      expect((error as ForbiddenError).data).toEqual({ reason: 'NO_CLUSTER' });
      expect((error as Error).message).toMatch(/Aucun cluster ne vous est attribué/);
    }
  });

  it('given another user as managerUserId, or another role, then 403', () => {
    const actor = { id: MANAGER, role: 'ROLE_CLUSTER_MANAGER' as const, clusterId: CLUSTER };
    expect(() => clusterToConfigure(actor, AGGREGATOR)).toThrow(ForbiddenError);
    expect(() =>
      clusterToConfigure({ id: MANAGER, role: 'ROLE_SUPER_ADMIN', clusterId: CLUSTER }),
    ).toThrow(ForbiddenError);
  });

  it('administrators read every cluster; the others their own only', () => {
    expect(mayReadCluster({ id: MANAGER, role: 'ROLE_SUPER_ADMIN', clusterId: null }, OTHER)).toBe(
      true,
    );
    expect(mayReadCluster({ id: MANAGER, role: 'ROLE_ADMIN', clusterId: CLUSTER }, OTHER)).toBe(
      true,
    );
    const manager = { id: MANAGER, role: 'ROLE_CLUSTER_MANAGER' as const, clusterId: CLUSTER };
    expect(mayReadCluster(manager, CLUSTER)).toBe(true);
    expect(mayReadCluster(manager, OTHER)).toBe(false);
  });
});

describe('deciding a configuration', () => {
  it('given an invalid aggregator, then 400 on industrialUserId', () => {
    try {
      decideConfiguration(given({ industrialValid: false }), request(), MANAGER);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).data).toEqual({
        fields: { industrialUserId: 'Agrégateur introuvable ou inactif' },
      });
    }
  });

  it('given cooperatives and growers of the cluster and unassigned ones, then only the unassigned move, and the event says what changed', () => {
    const decision = decideConfiguration(
      given({
        industrialUserId: null,
        cooperatives: candidates(
          { id: 'c-in', label: 'Coop A', clusterId: CLUSTER },
          { id: 'c-free', label: 'Coop B', clusterId: null },
        ),
        growers: candidates(
          { id: 'g-in', label: 'Basile A.', clusterId: CLUSTER, cooperativeId: null },
          { id: 'g-free', label: 'Koffi B.', clusterId: null, cooperativeId: null },
        ),
      }),
      request({ cooperativeIds: ['c-in', 'c-free', 'c-free'], growersId: ['g-in', 'g-free'] }),
      MANAGER,
    );
    expect(decision.cooperativesToMove).toEqual(['c-free']);
    expect(decision.growersToMove).toEqual(['g-free']);
    expect(decision.label).toBe('Cluster Allada Nord');
    expect(decision.event).toEqual({
      type: 'ClusterConfigured',
      data: {
        clusterId: CLUSTER,
        actorId: MANAGER,
        labelFrom: 'Cluster Allada',
        labelTo: 'Cluster Allada Nord',
        industrialFrom: null,
        industrialTo: AGGREGATOR,
        cooperativesMovedIn: ['c-free'],
        growersMovedIn: ['g-free'],
      },
    });
  });

  it('given a cooperative of another cluster, then 409 naming it', () => {
    const state = given({
      cooperatives: candidates({ id: 'c-x', label: 'Coop de Zè', clusterId: OTHER }),
    });
    const refuse = () => decideConfiguration(state, request({ cooperativeIds: ['c-x'] }), MANAGER);
    expect(refuse).toThrow(ConflictError);
    expect(refuse).toThrow('La coopérative « Coop de Zè » appartient à un autre cluster');
  });

  it('given an unknown cooperative or grower, then 400 on its field', () => {
    expect(() =>
      decideConfiguration(given(), request({ cooperativeIds: ['nope'] }), MANAGER),
    ).toThrow(ValidationError);
    expect(() => decideConfiguration(given(), request({ growersId: ['nope'] }), MANAGER)).toThrow(
      'Producteur introuvable',
    );
  });

  it('given a grower of a cooperative, or of another cluster, then refused', () => {
    const state = given({
      growers: candidates(
        { id: 'g-coop', label: 'Awa D.', clusterId: CLUSTER, cooperativeId: 'c-in' },
        { id: 'g-x', label: 'Jonas G.', clusterId: OTHER, cooperativeId: null },
      ),
    });
    expect(() => decideConfiguration(state, request({ growersId: ['g-coop'] }), MANAGER)).toThrow(
      ValidationError,
    );
    expect(() => decideConfiguration(state, request({ growersId: ['g-x'] }), MANAGER)).toThrow(
      ConflictError,
    );
  });
});
