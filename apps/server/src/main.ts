import { build } from './app.ts';
import { loadConfig } from './config.ts';

const config = loadConfig();
const app = await build(config, {
  onGeneratedPassword(username, password) {
    // Printed once, on the first start with an empty database; it is not stored in clear anywhere.
    process.stdout.write(
      `\n  Superadmin created: ${username}\n  Password: ${password}\n  (shown once; set ADMIN_PASSWORD to choose it)\n\n`,
    );
  },
});

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    app.log.error('shutdown took longer than 10 s; exiting');
    process.exit(1);
  }, 10_000);
  force.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'error while shutting down');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.PORT, host: config.HOST });
