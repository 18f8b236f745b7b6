import { SIGN_IN_AGAIN_CODES } from '@common/schemas/errors';
import type { ImportPreviewDto } from '@common/schemas/imports';
import { ApiCallError } from '../../api/client';
import { useSession } from '../../api/session';

/** The answer of a call the client helper cannot make (a raw file body, a CSV download): its error as ApiCallError. */
async function failed(res: Response): Promise<never> {
  const text = await res.text();
  let detail = text || res.statusText;
  let code: string | null = null;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string; code?: string } };
    detail = parsed.error?.message ?? detail;
    code = parsed.error?.code ?? null;
  } catch {
    // not JSON: keep the text
  }
  if (code && SIGN_IN_AGAIN_CODES.includes(code)) useSession.getState().signOut(detail);
  throw new ApiCallError(res.status, `${res.status}: ${detail}`, detail, code);
}

/** Uploads the file once as the raw body (the server streams it to a temp file). */
export async function uploadFile(file: File): Promise<ImportPreviewDto> {
  const res = await fetch(`/api/admin/imports?fileName=${encodeURIComponent(file.name)}`, {
    method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/octet-stream' }, body: file,
  });
  if (!res.ok) return failed(res);
  return (await res.json()) as ImportPreviewDto;
}

/** Saves the rejected rows of the last dry run or import as a CSV file. */
export async function downloadRejections(id: string, fileName: string): Promise<void> {
  const res = await fetch(`/api/admin/imports/${encodeURIComponent(id)}/rejections`, { credentials: 'same-origin' });
  if (!res.ok) return failed(res);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `${fileName.replace(/\.[^.]*$/, '')} - rejected rows.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
