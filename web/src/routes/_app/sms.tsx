import { createFileRoute } from '@tanstack/react-router';
import { SMS_KINDS, SMS_STATUSES } from '../../features/messaging/api/sms.js';
import { SmsPage } from '../../features/messaging/components/SmsPage.js';
import { enumParam, listSearch } from '../../shared/search/list-search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** 'SMS': the messages sent to members and what they cost (filters and page in the URL). */
export const Route = createFileRoute('/_app/sms')({
  validateSearch: listSearch({ status: enumParam(SMS_STATUSES), kind: enumParam(SMS_KINDS) }),
  beforeLoad: ({ context }) => guardRoute('sms', context.user),
  component: function Sms() {
    const search = Route.useSearch();
    const onSearchChange = useSearchChange();
    return <SmsPage search={search} onSearchChange={onSearchChange} />;
  },
});
