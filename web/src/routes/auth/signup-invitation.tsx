import { createFileRoute } from '@tanstack/react-router';
import { SetPasswordPage } from '../../features/identity/components/SetPasswordPage.js';
import { linkSearch } from './-link-search.js';

export const Route = createFileRoute('/auth/signup-invitation')({
  validateSearch: linkSearch,
  component: function SignupInvitation() {
    const { t, r } = Route.useSearch();
    return <SetPasswordPage mode="invitation" token={t} email={r} />;
  },
});
