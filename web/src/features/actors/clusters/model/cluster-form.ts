import { z } from 'zod';
import { msg, requiredText } from '../../../../shared/validation/rules.js';
import type { ClusterConfig, ClusterConfigBody, IndustrialOption } from '../api/clusters.js';

/**
 * 'Configurer mon cluster' (spec §2.7, §5): the cluster's name, its aggregator (required),
 * the cooperatives and the growers without cooperative ticked into it. Rows already in the
 * cluster stay ticked (the server never takes one out here).
 */
export const clusterFormSchema = z.object({
  clusterName: requiredText(),
  industrialUserId: z.string(msg.required).min(1, msg.required),
  cooperativeIds: z.array(z.string()),
  growersId: z.array(z.string()),
});
export type ClusterFormValues = z.infer<typeof clusterFormSchema>;

export function toFormValues(config: ClusterConfig): ClusterFormValues {
  return {
    clusterName: config.cluster.label,
    industrialUserId: config.industrial?.id ?? '',
    cooperativeIds: [...config.cooperatives],
    growersId: [...config.growers],
  };
}

export function toBody(values: ClusterFormValues, managerUserId: string): ClusterConfigBody {
  return {
    managerUserId,
    clusterName: values.clusterName.trim(),
    industrialUserId: values.industrialUserId,
    cooperativeIds: values.cooperativeIds,
    growersId: values.growersId,
  };
}

/** 'Awa Dossou — Ananas Export SA'. */
export function industrialLabel(option: IndustrialOption): string {
  const name = `${option.firstname} ${option.lastname}`;
  return option.organization ? `${name} — ${option.organization.denomination}` : name;
}

/** The select's options: every active aggregator, plus the configured one if it is not. */
export function industrialChoices(
  options: readonly IndustrialOption[],
  current: IndustrialOption | null,
): { value: string; label: string }[] {
  const all =
    current && !options.some((o) => o.id === current.id) ? [current, ...options] : options;
  return all.map((o) => ({ value: o.id, label: industrialLabel(o) }));
}
