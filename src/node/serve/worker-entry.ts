/**
 * A render worker process of `krmfn serve` (forked by worker-pool.ts): the first message carries
 * the setup (config.ts) from which it builds the configured service once; every later message is
 * one job, answered on the IPC channel. Built to dist/serve-worker.js; from sources it is bundled
 * on demand (../wasm/worker-script.ts). The pool kills the process at a job's deadline or when its
 * client goes away, so nothing here watches the clock.
 */
import { createConfiguredService, type ConfiguredService } from './config.ts';
import { errorToData, type WorkerAnswer, type WorkerMessage, type WorkerSetup } from './worker-protocol.ts';

if (!process.send) throw new Error('serve worker-entry must run as a forked process');
const reply = (a: WorkerAnswer): void => void process.send!(a);
const never = new AbortController().signal;
let configured: ConfiguredService | undefined;

process.on('message', (m: WorkerMessage | { setup: WorkerSetup }) => {
  if ('setup' in m) {
    configured = createConfiguredService(m.setup.config, m.setup.functions);
    return;
  }
  const { service } = configured!;
  const job = m.op === 'run' ? service.run({ ...m.req, signal: never }) : service.render({ ...m.req, signal: never });
  void job.then(
    (value) => reply({ id: m.id, ok: true, value }),
    (e: unknown) => reply({ id: m.id, ok: false, error: errorToData(e) }),
  );
});
// The server going away closes the channel: stop with it.
process.on('disconnect', () => process.exit(0));
