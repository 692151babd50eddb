import { createFileRoute } from '@tanstack/react-router';
import { RegisterPage } from '../../features/identity/components/RegisterPage.js';

export const Route = createFileRoute('/auth/register')({ component: RegisterPage });
