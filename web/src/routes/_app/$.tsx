import { createFileRoute } from '@tanstack/react-router';
import { NotFoundInLayout } from '../../shared/ui/NotFound.js';

/**
 * Any address no screen serves, once signed in: 'Page introuvable' inside the main layout
 * (menu and wallet card beside it), with a way back, rather than the router's bare page.
 */
export const Route = createFileRoute('/_app/$')({
  component: NotFoundInLayout,
});
