import type { CreateShareLink, CreatedShareLinkDto, ShareLinkDto } from '@common/schemas/sharing/shareLink';
import { api } from '../../api/client';

const base = (dashboardId: string) => `/api/admin/dashboards/${encodeURIComponent(dashboardId)}/links`;

/** The share-link calls of the console. */
export const shareLinksApi = {
  list: (dashboardId: string) => api.get<ShareLinkDto[]>(base(dashboardId)),
  create: (dashboardId: string, body: Partial<CreateShareLink> & { label: string }) => api.post<CreatedShareLinkDto>(base(dashboardId), body),
  revoke: (dashboardId: string, linkId: string) => api.delete<ShareLinkDto>(`${base(dashboardId)}/${encodeURIComponent(linkId)}`),
};

/** The full address of a link's viewer page. */
export const shareUrl = (path: string) => `${window.location.origin}${path}`;

/** The snippet that embeds a viewer page without its header. */
export const iframeSnippet = (url: string) =>
  `<iframe src="${url}${url.includes('?') ? '&' : '?'}embed=1" width="100%" height="600" style="border:0" title="LiveDash dashboard"></iframe>`;
