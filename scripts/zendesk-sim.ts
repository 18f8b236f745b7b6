/**
 * `npm run zendesk:sim`: a local Zendesk for the offline demo and manual testing.
 * Env: ZENDESK_SIM_PORT (4010), ZENDESK_SIM_TICKETS (3000), ZENDESK_SIM_USERS (300),
 * ZENDESK_SIM_ORGS (25), ZENDESK_SIM_CLIENT_ID, ZENDESK_SIM_CLIENT_SECRET,
 * ZENDESK_SIM_CHURN_SECONDS (60; 0 = off): new, updated and deleted tickets appear that often.
 */
import { DEFAULT_SIM_CLIENT, startZendeskSimulator } from '../server/integrations/zendesk/simulator/server';

const num = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);

async function main() {
  const env = process.env;
  const clientId = env.ZENDESK_SIM_CLIENT_ID || DEFAULT_SIM_CLIENT.clientId;
  const clientSecret = env.ZENDESK_SIM_CLIENT_SECRET || DEFAULT_SIM_CLIENT.clientSecret;
  const sim = await startZendeskSimulator({
    port: num(env.ZENDESK_SIM_PORT, 4010),
    host: env.ZENDESK_SIM_HOST || '127.0.0.1',
    tickets: num(env.ZENDESK_SIM_TICKETS, 3000),
    users: num(env.ZENDESK_SIM_USERS, 300),
    organizations: num(env.ZENDESK_SIM_ORGS, 25),
    clients: [{ clientId, clientSecret }],
    log: (l) => console.error(l),
  });
  const churnSeconds = num(env.ZENDESK_SIM_CHURN_SECONDS, 60);
  console.log(`Zendesk simulator on ${sim.url}`);
  console.log(`  ${sim.data.tickets.size} tickets, ${sim.data.users.size} users, ${sim.data.organizations.size} organizations`);
  console.log(`  Start LiveDash with ZENDESK_HTTP_HOSTS=${new URL(sim.url).host} so it accepts this plain-http Host URL.`);
  console.log('  Connect it in /admin > Data Sources > Integrations > Zendesk with:');
  console.log(`    Host URL:      ${sim.url}`);
  console.log(`    Client ID:     ${clientId}`);
  console.log(`    Client Secret: ${clientSecret}  (the simulator's own demo secret)`);
  console.log(`  Switches: curl -XPOST ${sim.url}/__sim/churn | /__sim/rate-limit -d count=2 -d retryAfter=3 | /__sim/fail -d count=1`);
  if (churnSeconds > 0) {
    console.log(`  New, updated and deleted tickets every ${churnSeconds}s`);
    setInterval(() => {
      const c = sim.data.churn();
      console.log(`  churn: +${c.created.length} new, ${c.updated.length} updated, ${c.deleted.length} deleted`);
    }, churnSeconds * 1000).unref();
  }
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await new Promise(() => {});
}

void main();
