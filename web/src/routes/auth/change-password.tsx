import { createFileRoute } from '@tanstack/react-router';
import { SetPasswordPage } from '../../features/identity/components/SetPasswordPage.js';
import { linkSearch } from './-link-search.js';

export const Route = createFileRoute('/auth/change-password')({
  validateSearch: linkSearch,
  component: function ChangePassword() {
    const { t, r } = Route.useSearch();
    return <SetPasswordPage mode="reset" token={t} email={r} />;
  },
});
