/**
 * Copy-ready samples of signing a signed-embedding token on the host's server, one per language.
 * None holds the secret: each reads it from LIVEDASH_EMBED_SECRET (its text is the HMAC key, as
 * TextEncoder, PyJWT and `openssl -hmac` take a string). `web/e2e/embedSamples.test.ts` runs each
 * of them against a real server.
 */
export interface EmbedSampleInput {
  /** This server's address as the customers' browsers reach it. */
  baseUrl: string;
  dashboardId: string;
  /** The field that tells the host's customers apart (the token locks it to one value). */
  field: string;
  dashboardName: string;
}

export interface EmbedSamples {
  node: string;
  python: string;
  shell: string;
  iframe: string;
}

/** A text as a JavaScript / Python / JSON string literal. */
const quoted = (text: string) => JSON.stringify(text);
/** What a value looks like inside single quotes in a shell script. */
const shellQuoted = (text: string) => text.replace(/'/g, `'\\''`);

export function embedSamples({ baseUrl, dashboardId, field, dashboardName }: EmbedSampleInput): EmbedSamples {
  const base = baseUrl.replace(/\/$/, '');
  const node = `// npm install jose — on your server, never in the browser
import { SignJWT } from 'jose';

const secret = new TextEncoder().encode(process.env.LIVEDASH_EMBED_SECRET);

/** The address of the dashboard for one customer: only its rows, live, for 10 minutes. */
export async function embedUrl(customerId) {
  const token = await new SignJWT({
    dashboard: ${quoted(dashboardId)},
    filters: [{ field: ${quoted(field)}, operator: 'eq', value: String(customerId) }],
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(secret);
  return \`${base}/embed/\${token}\`;
}
`;
  const python = `# pip install PyJWT — on your server, never in the browser
import os
import time

import jwt

SECRET = os.environ["LIVEDASH_EMBED_SECRET"]


def embed_url(customer_id):
    """The address of the dashboard for one customer: only its rows, live, for 10 minutes."""
    now = int(time.time())
    token = jwt.encode(
        {
            "dashboard": ${quoted(dashboardId)},
            "filters": [{"field": ${quoted(field)}, "operator": "eq", "value": str(customer_id)}],
            "iat": now,
            "exp": now + 600,
        },
        SECRET,
        algorithm="HS256",
    )
    return f"${base}/embed/{token}"
`;
  const shell = `# openssl and a POSIX shell; LIVEDASH_EMBED_SECRET and CUSTOMER_ID (no quotes or backslashes in it) in the environment
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
now=$(date +%s)
header=$(printf '%s' '{"alg":"HS256","typ":"JWT"}' | b64url)
payload=$(printf '{"dashboard":"%s","filters":[{"field":"%s","operator":"eq","value":"%s"}],"iat":%s,"exp":%s}' \\
  '${shellQuoted(dashboardId)}' '${shellQuoted(field.replace(/["\\]/g, '\\$&'))}' "$CUSTOMER_ID" "$now" "$((now + 600))" | b64url)
signature=$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -hmac "$LIVEDASH_EMBED_SECRET" -binary | b64url)
echo "${base}/embed/$header.$payload.$signature"
`;
  const title = dashboardName.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const iframe = `<iframe src="${base}/embed/<token signed on your server>" width="100%" height="600" style="border:0" title="${title}"></iframe>`;
  return { node, python, shell, iframe };
}
