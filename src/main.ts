// Starts the service: `npm start`. Reads the configuration, opens and migrates the store, loads the demo
// into an empty store, and serves until SIGINT or SIGTERM.
import { ConfigError, loadConfig } from './config.js';
import { loadDemo, storeIsEmpty } from './domain/demo.js';
import { createService } from './service.js';

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
  const demo = config.demo && (await storeIsEmpty(service.ctx)) ? await loadDemo(service.ctx) : null;
  const address = await service.app.listen({ port: config.port, host: config.host });

  const lines = [
    `Guide service is listening on ${address} (role: ${config.role})`,
    `  REST API:       ${config.publicUrl}/v1`,
    `  Reference:      ${config.publicUrl}/docs`,
    `  Management API: ${config.publicUrl}/admin/v1`,
    service.adminTokenGenerated
      ? `  Admin token:    ${service.adminToken}`
      : `  Admin token:    ${config.adminToken ? 'as set in ADMIN_TOKEN' : `stored in ${config.dataDir}/admin-token`}`,
  ];
  if (demo) {
    lines.push(
      '',
      'Demo data loaded. These keys are shown once:',
      `  Organization key (Northwind Outfitters, Growth plan): ${demo.organizationKey}`,
      `  Team key (Solo Studio, Free plan):                    ${demo.teamKey}`,
      '',
      'Try:',
      `  curl -H "Authorization: Bearer ${demo.organizationKey}" "${config.publicUrl}/v1/guides?limit=5"`,
    );
  }
  banner(lines);

  const stop = async (signal: string) => {
    service.app.log.info({ signal }, 'shutting down');
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
