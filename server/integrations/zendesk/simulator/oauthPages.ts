/** The simulator's HTML pages: the authorization consent screen and plain error pages. */

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const shell = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f6f7f9;margin:0;display:grid;place-items:center;min-height:100vh}
.card{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002;padding:32px;max-width:420px}
h1{font-size:20px;margin:0 0 12px}button{font-size:15px;padding:8px 20px;border-radius:6px;border:1px solid #03363d;cursor:pointer;margin-right:8px}
.allow{background:#03363d;color:#fff}.deny{background:#fff;color:#03363d}code{background:#eef;padding:1px 4px}</style></head>
<body><div class="card">${body}</div></body></html>`;

/** The consent screen: Allow and Deny post the decision back with the request's parameters. */
export function consentPage(p: { clientId: string; redirectUri: string; scope: string; state: string; account: string }): string {
  const hidden = Object.entries({ client_id: p.clientId, redirect_uri: p.redirectUri, scope: p.scope, state: p.state })
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v)}">`)
    .join('');
  return shell(
    'Authorize access - Zendesk simulator',
    `<h1>Allow access to ${esc(p.account)}?</h1>
<p>The application <code>${esc(p.clientId)}</code> asks for <b>${esc(p.scope)}</b> access to your Zendesk Support account.</p>
<form method="post" action="/oauth/authorizations">${hidden}
<button class="allow" type="submit" name="decision" value="allow">Allow</button>
<button class="deny" type="submit" name="decision" value="deny">Deny</button></form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return shell(title, `<h1>${esc(title)}</h1><p>${esc(message)}</p>`);
}
