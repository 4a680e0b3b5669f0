/**
 * How a kpt release records a render's outcome in the root Kptfile (the `status` strategy of a
 * compatibility level, src/engine/kpt-level.ts).
 *
 * beta.67 (kptdev/kpt pkg/lib/kptops/render_executor.go at v1.0.0-beta.67, `updateRenderStatus`,
 * `buildRenderStatus`, `captureStepResult`, `preExecFailureStep`, `setRenderStatus`): after an
 * in-place render, successful or not, the root Kptfile is read back, decoded into kpt's Go type
 * and written again (src/core/kptfile-canonical.ts) with
 * - `status.conditions`: earlier conditions of other types kept, the `Rendered` one replaced by
 *   `{type: Rendered, status: "True", reason: RenderSuccess}` or
 *   `{type: Rendered, status: "False", reason: RenderFailed, message: <error>}`;
 * - `status.renderStatus` (absent when no step ran): `mutationSteps` and `validationSteps` of
 *   every package in run order (name, image, exec, executionError, stderr, exitCode, results,
 *   errorResults = the results of severity error) and, on failure, `errorSummary`: one
 *   `<name|image|exec>: <executionError | exit code N>` line per failed step. Result field values
 *   are kpt's strings (src/core/result-field-values.ts, 'strings').
 * A Kptfile that does not decode is left alone (kpt logs and continues). beta.56 writes nothing.
 */
import { canonicalKptfileNode, emitCanonicalKptfile, goStringNode, intNode } from '../core/kptfile-canonical.ts';
import { decodeKptfile } from '../core/kptfile.ts';
import { resultsNode } from '../core/resource-list.ts';
import type { Result } from '../core/result.ts';
import { parseYamlFile } from '../core/yaml/index.ts';
import { relative } from './paths.ts';
import { mapGet, mappingNode, sequenceNode, strNode, type YNode } from '../core/yaml/node.ts';

/** One pipeline step as kpt's `PipelineStepResult` records it. */
export interface StepRecord {
  validator: boolean;
  name?: string;
  image?: string;
  exec?: string;
  executionError?: string;
  stderr?: string;
  exitCode: number;
  results: readonly Result[];
}

export interface RenderStatusOutcome {
  steps: readonly StepRecord[];
  /** The render error as kpt words it in the condition message; undefined on success. */
  error?: string;
}

export interface RenderStatusWriter {
  /** The root Kptfile's new text, or undefined when this release leaves it as it is. */
  update(kptfileText: string, outcome: RenderStatusOutcome): string | undefined;
}

export const noRenderStatus: RenderStatusWriter = { update: () => undefined };

function stepNode(s: StepRecord): YNode {
  const c: YNode[] = [];
  const add = (k: string, v: string | undefined): void => {
    if (v) c.push(strNode(k), goStringNode(v));
  };
  add('name', s.name);
  add('image', s.image);
  add('exec', s.exec);
  add('executionError', s.executionError);
  add('stderr', s.stderr);
  c.push(strNode('exitCode'), intNode(s.exitCode));
  if (s.results.length) c.push(strNode('results'), resultsNode(s.results, 'strings'));
  const errors = s.results.filter((r) => r.severity === 'error');
  if (errors.length) c.push(strNode('errorResults'), resultsNode(errors, 'strings'));
  return mappingNode(c);
}

function stepLabel(s: StepRecord): string {
  return s.name || s.image || s.exec || '';
}

function renderStatusNode(o: RenderStatusOutcome): YNode | undefined {
  if (!o.steps.length) return undefined;
  const c: YNode[] = [];
  const mutations = o.steps.filter((s) => !s.validator);
  const validations = o.steps.filter((s) => s.validator);
  if (mutations.length) c.push(strNode('mutationSteps'), sequenceNode(mutations.map(stepNode)));
  if (validations.length) c.push(strNode('validationSteps'), sequenceNode(validations.map(stepNode)));
  if (o.error !== undefined) {
    const lines = [...mutations, ...validations].flatMap((s) =>
      s.executionError
        ? [`${stepLabel(s)}: ${s.executionError}`]
        : s.exitCode !== 0
          ? [`${stepLabel(s)}: exit code ${s.exitCode}`]
          : [],
    );
    if (lines.length) c.push(strNode('errorSummary'), goStringNode(lines.join('\n')));
  }
  return mappingNode(c, c.length ? '' : 'flow');
}

function conditionNode(o: RenderStatusOutcome): YNode {
  const failed = o.error !== undefined;
  const c = [
    strNode('type'),
    strNode('Rendered'),
    strNode('status'),
    strNode(failed ? 'False' : 'True'),
    strNode('reason'),
    strNode(failed ? 'RenderFailed' : 'RenderSuccess'),
  ];
  if (failed && o.error) c.push(strNode('message'), goStringNode(o.error));
  return mappingNode(c);
}

export const beta67RenderStatus: RenderStatusWriter = {
  update(text, outcome) {
    let doc: YNode | undefined;
    try {
      doc = parseYamlFile(text, { file: 'Kptfile' }).docs[0];
    } catch {
      return undefined;
    }
    if (!doc || !decodeKptfile(doc, '1.0.0-beta.67').ok) return undefined;
    const canonical = canonicalKptfileNode(doc, '1.0.0-beta.67');
    const root = canonical.content[0];
    const statusAt = root.content.findIndex((n, i) => i % 2 === 0 && n.value === 'status');
    const old = statusAt >= 0 ? root.content[statusAt + 1] : undefined;
    if (statusAt >= 0) root.content.splice(statusAt, 2);
    const oldConditions = old ? mapGet(old, 'conditions') : undefined;
    const kept = (oldConditions?.content ?? []).filter((cond) => mapGet(cond, 'type')?.value !== 'Rendered');
    const status: YNode[] = [strNode('conditions'), sequenceNode([...kept, conditionNode(outcome)])];
    const rs = renderStatusNode(outcome);
    if (rs) status.push(strNode('renderStatus'), rs);
    root.content.push(strNode('status'), mappingNode(status));
    if (root.style === 'flow') root.style = '';
    return emitCanonicalKptfile(canonical);
  },
};

/**
 * kpt's text of a render error raised while running package `pkgDir`'s pipeline, as the condition
 * message shows it: `pkg.render: pkg <P>:\n\tpipeline.run: <cause>`, where <P> is the package
 * path relative to the working directory (absolute when outside it) and every occurrence of the
 * root's absolute path is then replaced by `.` (kptdev/kpt pkg/lib/errors/errors.go and
 * api/kptfile/v1/path.go `RelativePath` at v1.0.0-beta.67). A function's non-zero exit is
 * `already handled error`. An error of the pipeline's run-time validation (`ValidatePipeline`,
 * `inPipeline` false) is not wrapped by `pipeline.run`: `pkg.render: pkg <P>: <cause>`. When the
 * failing pipeline is not package <P> (top-down hydration wraps every error with the root, kpt's
 * `hydrateBfsOrder`), `pipeline.run` names it: `pipeline.run: pkg <Q>: <cause>` (errors.go `E`
 * drops a wrapped error's path only when it equals the outer one).
 */
export function kptRenderErrorText(
  cwd: string,
  root: string,
  pkgDir: string,
  cause: string,
  inPipeline = true,
  pipelineDir: string = pkgDir,
): string {
  const shown = (dir: string): string => {
    const rel = relative(cwd, dir);
    return rel === '..' || rel.startsWith('../') ? dir : rel;
  };
  const inner = pipelineDir === pkgDir ? '' : `pkg ${shown(pipelineDir)}: `;
  const text = inPipeline
    ? `pkg.render: pkg ${shown(pkgDir)}:\n\tpipeline.run: ${inner}${cause}`
    : `pkg.render: pkg ${shown(pkgDir)}: ${cause}`;
  return text.split(root).join('.');
}
