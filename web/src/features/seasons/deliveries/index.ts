/** 'Demandes d'intrants' (/demande): deliveries by grower code. */
export { DeliveriesPage } from './components/DeliveriesPage.js';
