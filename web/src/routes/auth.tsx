import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../app/layout/AuthLayout.js';

export const Route = createFileRoute('/auth')({ component: AuthLayout });
