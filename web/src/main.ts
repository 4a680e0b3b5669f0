/**
 * The playground page: a package's files in an editor, rendered by the krmfn engine in a Worker on
 * every edit, with per-file diffs, results that link to their resource and line, and the whole
 * state shareable through the URL. The page never runs functions itself, so a runaway function
 * cannot freeze it: the Worker enforces the engine's limits, and a watchdog here terminates the
 * Worker if it stops answering.
 */
import { EditorView, basicSetup } from 'codemirror';
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet } from '@codemirror/view';
import { yaml } from '@codemirror/lang-yaml';
import { python } from '@codemirror/lang-python';
import samples from 'krmfn-playground-samples';
import { unifiedDiff } from 'krmfn';
import type { RenderJob, RenderReply, ResultView } from './protocol.ts';
import { decodeState, encodeState } from './share.ts';
import { renderTree, type FileMark } from './tree.ts';

const FIXED_NOW = Date.UTC(2026, 0, 1);
/** Per-function deadline; `?timeout=MS` overrides it (tests use short ones). */
const TIMEOUT_MS = Number(new URLSearchParams(location.search).get('timeout')) || 5_000;
const WATCHDOG_SLACK_MS = 3_000;

type Files = Record<string, string | Uint8Array>;

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const status = $('status');
let files: Files = {};
let selected: string | undefined;
let lastReply: RenderReply | undefined;
let worker: Worker | undefined;
let jobSeq = 0;
let pending: { id: number; resolve: (r: RenderReply) => void; watchdog: ReturnType<typeof setTimeout> } | undefined;
let debounce: ReturnType<typeof setTimeout> | undefined;

// ---- editor -----------------------------------------------------------------------------------
const setErrorLine = StateEffect.define<number | null>();
const errorLine = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) {
      if (e.is(setErrorLine)) {
        if (e.value === null || e.value < 1 || e.value > tr.state.doc.lines) return Decoration.none;
        const line = tr.state.doc.line(e.value);
        return Decoration.set([Decoration.line({ class: 'cm-error-line' }).range(line.from)]);
      }
    }
    return deco.map(tr.changes);
  },
  provide: (f) => EditorView.decorations.from(f),
});

let view: EditorView | undefined;
function languageFor(path: string) {
  return /\.(star|bzl|py)$/.test(path) ? [python()] : /\.(ya?ml|json)$|(^|\/)Kptfile$/.test(path) ? [yaml()] : [];
}
function openInEditor(path: string | undefined, line?: number): void {
  selected = path;
  const content = path === undefined ? '' : files[path];
  $('editor-title').textContent = path ?? '(no file)';
  const text = typeof content === 'string' ? content : content ? `(binary file, ${content.length} bytes)` : '';
  const state = EditorState.create({
    doc: text,
    extensions: [
      basicSetup,
      errorLine,
      ...languageFor(path ?? ''),
      EditorState.readOnly.of(typeof content !== 'string'),
      EditorView.updateListener.of((u) => {
        if (u.docChanged && selected !== undefined && typeof files[selected] === 'string') {
          files[selected] = u.state.doc.toString();
          scheduleRender();
        }
      }),
    ],
  });
  if (!view) view = new EditorView({ state, parent: $('editor') });
  else view.setState(state);
  if (line) {
    const l = view.state.doc.line(Math.min(line, view.state.doc.lines));
    view.dispatch({ effects: setErrorLine.of(line), selection: { anchor: l.from }, scrollIntoView: true });
  }
  refreshTree();
}

// ---- files and tree ---------------------------------------------------------------------------
function outputText(path: string): string | undefined {
  return lastReply?.ok ? lastReply.files[path] : undefined;
}
function markOf(path: string): FileMark {
  if (!lastReply?.ok) return undefined;
  const before = files[path];
  const after = lastReply.files[path];
  if (before === undefined) return 'created';
  if (after === undefined) return typeof before === 'string' ? 'deleted' : undefined;
  return typeof before === 'string' && before !== after ? 'changed' : undefined;
}
function refreshTree(): void {
  const paths = new Set(Object.keys(files));
  if (lastReply?.ok) for (const p of Object.keys(lastReply.files)) paths.add(p);
  renderTree($('tree'), [...paths], selected, markOf, (p) => openInEditor(p in files ? p : p));
}
function loadFiles(next: Files, select?: string): void {
  files = next;
  lastReply = undefined;
  const paths = Object.keys(files).sort();
  openInEditor(select && select in files ? select : (paths.find((p) => p.endsWith('Kptfile')) ?? paths[0]));
  void renderNow();
}
function sampleFiles(name: string): Files {
  const out: Files = {};
  for (const [p, v] of Object.entries(samples[name] ?? {})) {
    out[p] = typeof v === 'string' ? v : Uint8Array.from(atob(v.base64), (c) => c.charCodeAt(0));
  }
  return out;
}

// ---- rendering --------------------------------------------------------------------------------
function startWorker(): Worker {
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  w.onmessage = (e: MessageEvent<RenderReply>) => {
    if (!pending || e.data.id !== pending.id) return;
    clearTimeout(pending.watchdog);
    const p = pending;
    pending = undefined;
    p.resolve(e.data);
  };
  return w;
}

function runJob(job: RenderJob): Promise<RenderReply> {
  worker ??= startWorker();
  if (pending) {
    // A newer edit supersedes the running render: restart the worker so it cannot pile up.
    clearTimeout(pending.watchdog);
    pending.resolve({
      id: pending.id,
      ok: false,
      files: {},
      results: [],
      log: '',
      error: { message: 'superseded' },
      ms: 0,
    });
    pending = undefined;
    worker.terminate();
    worker = startWorker();
  }
  return new Promise((resolve) => {
    const watchdog = setTimeout(() => {
      worker?.terminate();
      worker = undefined;
      pending = undefined;
      resolve({
        id: job.id,
        ok: false,
        files: {},
        results: [],
        log: '',
        error: {
          message: `render stopped: the engine did not answer within ${(job.timeoutMs + WATCHDOG_SLACK_MS) / 1000}s`,
        },
        ms: job.timeoutMs + WATCHDOG_SLACK_MS,
      });
    }, job.timeoutMs + WATCHDOG_SLACK_MS);
    pending = { id: job.id, resolve, watchdog };
    worker!.postMessage(job);
  });
}

async function renderNow(): Promise<RenderReply> {
  const id = ++jobSeq;
  document.body.dataset.renderState = 'running';
  status.className = '';
  status.textContent = 'rendering…';
  const reply = await runJob({ id, files: { ...files }, now: FIXED_NOW, timeoutMs: TIMEOUT_MS, allowWasm: true });
  if (reply.error?.message === 'superseded') return reply;
  lastReply = reply;
  showReply(reply);
  document.body.dataset.renderId = String(id);
  document.body.dataset.renderState = reply.ok ? 'done' : 'error';
  return reply;
}

function scheduleRender(): void {
  if (!($('auto') as HTMLInputElement).checked) return;
  clearTimeout(debounce);
  debounce = setTimeout(() => void renderNow(), 120);
}

// ---- output views -----------------------------------------------------------------------------
function showReply(r: RenderReply): void {
  status.className = r.ok ? '' : 'error';
  status.textContent = r.ok ? `rendered in ${r.ms.toFixed(1)} ms` : `render failed (${r.ms.toFixed(1)} ms)`;
  $('tab-log').textContent = r.log + (r.error ? `\n${r.error.message}\n` : '');
  showDiffs(r);
  showResults(r);
  refreshTree();
  if (!r.ok && r.error?.file && r.error.file in files) openInEditor(r.error.file, r.error.line);
}

function showDiffs(r: RenderReply): void {
  const pane = $('tab-diff');
  pane.replaceChildren();
  if (!r.ok) {
    const err = document.createElement('div');
    err.className = 'render-error';
    err.textContent = r.error?.message ?? 'render failed';
    pane.append(err);
    return;
  }
  const paths = [...new Set([...Object.keys(files), ...Object.keys(r.files)])].sort();
  let any = false;
  for (const path of paths) {
    const before = files[path];
    if (before !== undefined && typeof before !== 'string') continue;
    const text = unifiedDiff(path, before, r.files[path]);
    if (!text) continue;
    any = true;
    const box = document.createElement('div');
    box.className = 'file-diff';
    box.dataset.path = path;
    const h = document.createElement('h3');
    h.textContent = path;
    h.addEventListener('click', () => path in files && openInEditor(path));
    const pre = document.createElement('pre');
    for (const line of text.split('\n').slice(2, -1)) {
      const span = document.createElement('span');
      span.className =
        'l ' + (line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('@@') ? 'hunk' : '');
      span.textContent = line;
      pre.append(span);
    }
    box.append(h, pre);
    pane.append(box);
  }
  if (!any) {
    const p = document.createElement('p');
    p.className = 'no-changes';
    p.textContent = 'Rendering changes nothing.';
    pane.append(p);
  }
}

/** 1-based line where document `index` of a multi-document YAML file starts. */
function documentLine(text: string, index: number): number {
  if (index <= 0) return 1;
  const lines = text.split('\n');
  let doc = 0;
  for (let i = 0; i < lines.length; i++) if (/^---(\s|$)/.test(lines[i]!) && i > 0 && ++doc === index) return i + 2;
  return 1;
}

function showResults(r: RenderReply): void {
  const pane = $('tab-results');
  pane.replaceChildren();
  $('results-count').textContent = r.results.length ? `(${r.results.length})` : '';
  for (const res of r.results) pane.append(resultRow(res));
  if (!r.results.length) {
    const p = document.createElement('p');
    p.className = 'no-changes';
    p.textContent = 'No results.';
    pane.append(p);
  }
}

function resultRow(res: ResultView): HTMLElement {
  const row = document.createElement('div');
  row.className = 'result';
  const sev = document.createElement('span');
  sev.className = `sev ${res.severity}`;
  sev.textContent = res.severity;
  const msg = document.createElement('span');
  msg.textContent = res.message;
  row.append(sev, msg);
  const where = res.file ?? undefined;
  if (where) {
    const a = document.createElement('a');
    const text = files[where];
    const line = typeof text === 'string' ? documentLine(text, res.index ?? 0) : 1;
    a.textContent = ` ${res.resource ?? ''} ${where}:${line}${res.field ? ` (${res.field})` : ''}`;
    a.addEventListener('click', () => where in files && openInEditor(where, line));
    row.append(a);
  }
  const fn = document.createElement('div');
  fn.className = 'fn';
  fn.textContent = res.fn;
  row.append(fn);
  return row;
}

// ---- loading files ------------------------------------------------------------------------------
async function readPicked(list: FileList): Promise<Files> {
  const out: Files = {};
  const all = [...list];
  const prefix = commonDir(all.map((f) => f.webkitRelativePath || f.name));
  for (const f of all) {
    const path = (f.webkitRelativePath || f.name).slice(prefix.length);
    out[path] = /\.wasm$/.test(path) ? new Uint8Array(await f.arrayBuffer()) : await f.text();
  }
  return out;
}
function commonDir(paths: string[]): string {
  if (paths.length === 0 || !paths.every((p) => p.includes('/'))) return '';
  const first = paths[0]!.split('/')[0]! + '/';
  return paths.every((p) => p.startsWith(first)) ? first : '';
}
async function readEntry(entry: FileSystemEntry, base: string, out: Files): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
    out[base + entry.name] = /\.wasm$/.test(entry.name) ? new Uint8Array(await file.arrayBuffer()) : await file.text();
  } else if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
      if (!batch.length) break;
      for (const e of batch) await readEntry(e, `${base}${entry.name}/`, out);
    }
  }
}

// ---- wiring ---------------------------------------------------------------------------------------
function setup(): void {
  const sel = $<HTMLSelectElement>('sample');
  for (const name of Object.keys(samples)) sel.append(new Option(name, name));
  sel.addEventListener('change', () => loadFiles(sampleFiles(sel.value)));
  $('render').addEventListener('click', () => void renderNow());
  $('new-file').addEventListener('click', () => {
    const path = prompt('New file path (relative to the package root):', 'new.yaml');
    if (!path) return;
    files[path] = files[path] ?? '';
    openInEditor(path);
  });
  $('share').addEventListener('click', async () => {
    const hash = await encodeState(selected ? { files, selected } : { files });
    history.replaceState(null, '', `#${hash}`);
    await navigator.clipboard?.writeText(location.href).catch(() => {});
    status.textContent = 'link copied to the address bar';
  });
  for (const id of ['open-files', 'open-folder']) {
    $<HTMLInputElement>(id).addEventListener('change', async (e) => {
      const list = (e.target as HTMLInputElement).files;
      if (list?.length) loadFiles(await readPicked(list));
    });
  }
  const hint = $('drop-hint');
  addEventListener('dragover', (e) => {
    e.preventDefault();
    hint.hidden = false;
  });
  addEventListener('dragleave', () => (hint.hidden = true));
  addEventListener('drop', async (e) => {
    e.preventDefault();
    hint.hidden = true;
    const out: Files = {};
    const entries = [...(e.dataTransfer?.items ?? [])]
      .map((i) => i.webkitGetAsEntry())
      .filter((x): x is FileSystemEntry => !!x);
    if (entries.length === 1 && entries[0]!.isDirectory) {
      const dir = entries[0] as FileSystemDirectoryEntry;
      const reader = dir.createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) break;
        for (const en of batch) await readEntry(en, '', out);
      }
    } else for (const en of entries) await readEntry(en, '', out);
    if (Object.keys(out).length) loadFiles(out);
  });
  for (const tab of document.querySelectorAll<HTMLButtonElement>('[role=tab]')) {
    tab.addEventListener('click', () => {
      for (const t of document.querySelectorAll<HTMLButtonElement>('[role=tab]')) {
        t.setAttribute('aria-selected', String(t === tab));
        $(`tab-${t.dataset.tab}`).hidden = t !== tab;
      }
    });
  }
  if ('serviceWorker' in navigator && location.protocol !== 'file:')
    void navigator.serviceWorker.register('./sw.js').catch(() => {});
}

async function start(): Promise<void> {
  setup();
  const shared = await decodeState(location.hash).catch(() => undefined);
  if (shared) loadFiles(shared.files, shared.selected);
  else loadFiles(sampleFiles(Object.keys(samples)[0] ?? ''));
}

/** Test and automation hooks (read-only views and the same actions the buttons perform). */
(globalThis as Record<string, unknown>).krmfnPlayground = {
  render: renderNow,
  files: () => ({ ...files }),
  output: (path: string) => outputText(path),
  setFile(path: string, text: string) {
    files[path] = text;
    if (path === selected) openInEditor(path);
  },
  open: (path: string) => openInEditor(path),
  load: (next: Files) => loadFiles(next),
};

void start();
