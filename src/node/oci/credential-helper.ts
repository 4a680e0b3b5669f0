/**
 * One Docker credential helper call, in the protocol docker/docker-credential-helpers defines
 * (`client/client.go` `Get`): run `docker-credential-<name> get` with the server URL on stdin; the
 * helper prints `{"ServerURL","Username","Secret"}` as JSON, or exits non-zero printing
 * `credentials not found in native keychain` when it holds nothing for that server (answered here
 * as undefined: anonymous, as Docker's native store does). A `Username` of `<token>` marks an
 * identity token (an OAuth2 refresh token), which this client cannot exchange: also anonymous.
 * Any other failure (helper missing, bad output, other exit) is an `oci-unauthorized` OciError
 * naming the helper, as Docker fails the pull with "error getting credentials".
 */
import type { Credentials } from '../../core/oci/auth.ts';
import { OciError } from '../../core/oci/errors.ts';
import { runProcess } from '../process.ts';

const NOT_FOUND = 'credentials not found in native keychain';
const IDENTITY_TOKEN_USER = '<token>';
/** A helper that hangs (waiting on a keychain prompt) must not hang the run. */
const HELPER_DEADLINE_MS = 30_000;
const MAX_HELPER_OUTPUT = 1024 * 1024;

export interface HelperCall {
  /** The helper's suffix: `desktop` runs `docker-credential-desktop`. */
  helper: string;
  /** What Docker sends: the registry host, or `https://index.docker.io/v1/` for Docker Hub. */
  serverUrl: string;
  /** The registry as the reference names it (for messages). */
  registry: string;
  env: Record<string, string | undefined>;
}

export async function helperCredentials(call: HelperCall): Promise<Credentials | undefined> {
  const program = `docker-credential-${call.helper}`;
  const fail = (detail: string): OciError =>
    new OciError(
      'oci-unauthorized',
      `error getting credentials for ${call.registry} from ${program}: ${detail}`,
      call.registry,
    );
  let result;
  try {
    result = await runProcess({
      program,
      args: ['get'],
      stdin: new TextEncoder().encode(call.serverUrl),
      env: call.env,
      deadline: Date.now() + HELPER_DEADLINE_MS,
      maxOutputBytes: MAX_HELPER_OUTPUT,
      displayName: program,
    });
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    throw fail(/no such file or directory/.test(text) ? `executable file not found in $PATH` : text);
  }
  const out = new TextDecoder().decode(result.stdout).trim();
  if (result.exitCode !== 0) {
    if (out === NOT_FOUND) return undefined;
    const err = new TextDecoder().decode(result.stderr).trim();
    throw fail(`exit status ${result.exitCode}, out: \`${out || err}\``);
  }
  let doc: { Username?: unknown; Secret?: unknown };
  try {
    doc = JSON.parse(out) as typeof doc;
  } catch {
    throw fail(`the helper printed no JSON credentials`);
  }
  if (typeof doc.Username !== 'string' || typeof doc.Secret !== 'string') {
    throw fail(`the helper's answer has no Username and Secret strings`);
  }
  if (doc.Username === IDENTITY_TOKEN_USER || doc.Username === '') return undefined;
  return { username: doc.Username, password: doc.Secret };
}
