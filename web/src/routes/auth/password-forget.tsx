import { createFileRoute } from '@tanstack/react-router';
import { ForgotPasswordPage } from '../../features/identity/components/ForgotPasswordPage.js';

export const Route = createFileRoute('/auth/password-forget')({ component: ForgotPasswordPage });
