/** Growers' requests: the season detail's 'Demandes' tab, the request pages, the filing form. */
export { SeasonRequestsTab } from './components/SeasonRequestsTab.js';
export { RequestsPage } from './components/RequestsPage.js';
export { requestsSearch, type RequestsSearch, type RequestType } from './model/requests.js';
export { FileRequestPage } from './components/FileRequestPage.js';
