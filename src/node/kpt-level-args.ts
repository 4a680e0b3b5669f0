/**
 * The kpt release a kpt command follows (`--kpt-version`, else `KRMFN_KPT_VERSION`, else
 * src/core/kpt-version.ts's default) and beta.67's `--image-prefix`, read from parsed flags for
 * render, eval, source and sink. Both throw UsageError with the message the CLI prints.
 */
import { DEFAULT_KPT_VERSION } from '../core/kpt-version.ts';
import { kptLevel, type KptLevel } from '../engine/kpt-level.ts';
import { str, UsageError, type ParsedArgs } from './cli-flags.ts';
import type { CliIO } from './io.ts';

/** The kpt release chosen by `--kpt-version`, else `KRMFN_KPT_VERSION`, else the default. Throws UsageError. */
export function chosenKptLevel(p: ParsedArgs, io: CliIO): KptLevel {
  const value = str(p, 'kpt-version') ?? io.env.KRMFN_KPT_VERSION;
  let level: KptLevel;
  try {
    level = kptLevel(value || DEFAULT_KPT_VERSION);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (!level.imagePrefixFlag && str(p, 'image-prefix') !== undefined)
    throw new UsageError('unknown flag: --image-prefix');
  return level;
}

/**
 * kpt beta.67's `--image-prefix` (default `$KPT_IMAGE_PREFIX`, else the built-in registry) and its
 * `ValidatePrefix` messages (kptdev/kpt pkg/lib/runneroptions/runneroptions.go at v1.0.0-beta.67);
 * undefined for levels without it. Throws UsageError.
 */
export function chosenImagePrefix(p: ParsedArgs, io: CliIO, level: KptLevel): string | undefined {
  if (!level.imagePrefixFlag) return undefined;
  const prefix = str(p, 'image-prefix') ?? (io.env.KPT_IMAGE_PREFIX || undefined);
  if (prefix === undefined || prefix === '') return prefix;
  const trimmed = prefix.replace(/\/+$/, '');
  const q = JSON.stringify(prefix);
  if (trimmed.includes('://'))
    throw new UsageError(`invalid image prefix ${q}: must not include a scheme (e.g. https://)`);
  if (/[?#]/.test(trimmed)) throw new UsageError(`invalid image prefix ${q}: must not contain '?' or '#'`);
  let host = '';
  try {
    host = new URL(`https://${trimmed}`).host;
  } catch {
    host = '';
  }
  if (!host) throw new UsageError(`invalid image prefix ${q}: must be a valid registry path`);
  return prefix;
}
