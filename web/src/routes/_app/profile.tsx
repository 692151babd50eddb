import { createFileRoute } from '@tanstack/react-router';
import { ProfilePage } from '../../features/identity/components/ProfilePage.js';

export const Route = createFileRoute('/_app/profile')({ component: ProfilePage });
