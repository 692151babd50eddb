import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { SeasonWizardPage } from '../../features/seasons/admin/SeasonWizardPage.js';
import { ROLES } from '../../shared/auth/roles.js';
import { guardRoute } from './-guard.js';

/**
 * admin-saison-create: the create / edit wizard ('Ajouter une saison', `?id=` edits a saved
 * season, `?step=2` its aggregators), nav bar hidden; the super admin only (spec §6).
 */
export const Route = createFileRoute('/_app/saisons/create')({
  validateSearch: z.object({
    id: z.coerce.number().int().positive().optional().catch(undefined),
    step: z.coerce.number().int().min(1).max(2).optional().catch(undefined),
  }),
  beforeLoad: ({ context }) => {
    guardRoute('seasons', context.user);
    if (context.user.role?.code !== ROLES.SUPER_ADMIN) throw redirect({ to: '/saisons' });
  },
  staticData: { bare: true },
  component: function CreateSeason() {
    const { id, step } = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <SeasonWizardPage
        seasonId={id}
        step={id ? (step ?? 1) : 1}
        onStepChange={(next) =>
          void navigate({ search: { id: next.id, step: next.step }, replace: true })
        }
      />
    );
  },
});
