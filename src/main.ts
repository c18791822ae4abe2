// Starts the service: `npm start`. Reads the configuration, opens and migrates the store, loads the demo
// into an empty store, runs the parts ROLE names (api, worker or all), and on SIGTERM or SIGINT stops
// taking requests, finishes what is in flight (bounded) and releases its claims.
import { ConfigError, loadConfig } from './config.js';
import { loadDemoOnce } from './domain/demo.js';
import { LISTEN_BACKLOG, limitConnections } from './http/connection-limits.js';
import { createService } from './service.js';

/** How long a stop may take past the delivery time-out before the process exits anyway. */
const STOP_GRACE_MS = 5000;

function banner(lines: string[]): void {
  process.stdout.write('\n' + lines.join('\n') + '\n\n');
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  const service = await createService(config);
  const servesApi = config.role !== 'worker';
  const demo = servesApi && config.demo ? await loadDemoOnce(service.ctx, service.store) : null;
  limitConnections(service.app.server, { perAddress: config.connectionsPerAddress });
  const address = await service.app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });

  const lines = [`Guide service is listening on ${address} (role: ${config.role})`];
  if (servesApi) {
    lines.push(
      `  REST API:       ${config.publicUrl}/v1`,
      `  MCP:            ${config.publicUrl}/mcp`,
      `  Reference:      ${config.publicUrl}/docs`,
      `  Management API: ${config.publicUrl}/admin/v1`,
      `  Console:        ${config.appUrl}/console/`,
      service.adminTokenGenerated
        ? `  Admin token:    ${service.adminToken}`
        : `  Admin token:    ${config.adminToken ? 'as set in ADMIN_TOKEN' : `stored in ${config.dataDir}/admin-token`}`,
    );
  } else {
    lines.push('  Delivering webhooks; /healthz and /readyz answer here.');
  }
  if (demo) {
    lines.push(
      '',
      'Demo data loaded. These keys are shown once:',
      `  Organization key (Northwind Outfitters, Growth plan): ${demo.organizationKey}`,
      `  Team key (Solo Studio, Free plan):                    ${demo.teamKey}`,
      '',
      'Try:',
      `  curl -H "Authorization: Bearer ${demo.organizationKey}" "${config.publicUrl}/v1/guides?limit=5"`,
      '',
      'Console sign-in: alice@northwind.example (organization admin), bob@northwind.example (team admin),',
      `  carol@northwind.example (viewer), or the admin token${config.smtpUrl ? '' : '; without SMTP_URL the sign-in link is also written to the log'}.`,
    );
  }
  banner(lines);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.app.log.info({ signal }, 'stopping: no new requests; finishing requests and deliveries in flight');
    setTimeout(() => {
      service.app.log.error('stopping took too long; exiting');
      process.exit(1);
    }, config.webhookTimeoutMs + STOP_GRACE_MS).unref();
    await service.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`The service could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
