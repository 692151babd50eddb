import { ApiError } from '../../../shared/api/api-error.js';
import { api, apiResponse } from '../../../shared/api/client.js';
import type { ApiResponse } from '../../../shared/api/types.js';
import { getToken } from '../../../shared/auth/session.js';
import { RealtimeConnection } from '../../../shared/realtime/connection.js';
import type { PushMessage } from '../../../shared/realtime/invalidations.js';
import { reportDownloadProgress } from '../../../shared/ui/download-progress.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Without pushes (socket down), the job's state is read this often. */
const POLL_MS = 10_000;

/** `GET transaction/user/{id}/export/xlsx` above 10 000 rows: a background job. */
export type ExportJob = ApiResponse<'/api/transaction/export/{jobId}'>;

let lastHref: string | undefined;

function save(blob: Blob, fileName: string): string {
  if (lastHref) URL.revokeObjectURL(lastHref);
  const href = URL.createObjectURL(blob);
  lastHref = href;
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  return href;
}

const failed = () => new ApiError(409, 'L’export a échoué. Veuillez réessayer.');

/**
 * Waits for a background export: progress from the websocket pushes of the owner's room
 * (`export.progress`, `export.ready`, `export.failed` for this job), its state read once the
 * socket is open (pushes sent before are not lost) and every POLL_MS as a fallback.
 */
export function waitForExport(first: ExportJob): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      connection.stop();
      clearInterval(poll);
      if (error) {
        reportDownloadProgress({ state: 'failed' });
        reject(error);
      } else resolve();
    };
    const apply = (job: Pick<ExportJob, 'status' | 'done' | 'total'>) => {
      if (job.status === 'READY') finish();
      else if (job.status === 'FAILED') finish(failed());
      else if (!settled) {
        reportDownloadProgress({ state: 'preparing', done: job.done, total: job.total });
      }
    };
    const check = async () => {
      try {
        apply(await api<ExportJob>(first.statusUrl));
      } catch (error) {
        finish(error as Error);
      }
    };
    const onPush = (message: PushMessage) => {
      const mine = (data: { jobId: string } | null) => data?.jobId === first.jobId;
      if (message.type === 'export.progress' && mine(message.data)) {
        const { done, total } = message.data;
        apply({ status: 'RUNNING', done: done ?? 0, total: total ?? first.total });
      } else if (message.type === 'export.ready' && mine(message.data)) finish();
      else if (message.type === 'export.failed' && mine(message.data)) finish(failed());
    };
    const connection = new RealtimeConnection(getToken, onPush, () => void check());
    const poll = setInterval(() => void check(), POLL_MS);
    apply(first);
    connection.start();
  });
}

/**
 * Downloads a spreadsheet with the bearer token. The API answers the file (200), nothing
 * to export (204: returns false), or a background job (202) whose progress is shown, then
 * downloaded. `{url}` answers (the spec's "returns a url") are followed.
 */
export async function downloadSpreadsheet(path: string, fileName: string): Promise<boolean> {
  let response = await apiResponse(path, { accept: `${XLSX}, application/json` });
  if (response.status === 204) return false;
  if (response.status === 202) {
    const job = (await response.json()) as ExportJob;
    await waitForExport(job);
    response = await apiResponse(job.downloadUrl, { accept: XLSX });
    const href = save(await response.blob(), fileName);
    reportDownloadProgress({ state: 'ready', href, fileName });
    return true;
  }
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    const { url } = (await response.json()) as { url: string };
    response = await apiResponse(url, { accept: XLSX });
  }
  const href = save(await response.blob(), fileName);
  setTimeout(() => {
    if (lastHref !== href) return;
    URL.revokeObjectURL(href);
    lastHref = undefined;
  }, 10_000);
  return true;
}
