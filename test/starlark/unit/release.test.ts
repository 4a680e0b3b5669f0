// The google/starlark-go release a thread follows (src/starlark/release.ts): each change is
// absent before its commit date and present from it, and HEAD has every change. Expected texts
// come from google/starlark-go at the pinned commits (starlark/library.go, starlark/eval.go,
// lib/json/json.go) and, for Go's `%g`, from Go itself.
import { describe, expect, it } from 'vitest';
import {
  execFile,
  isStarlarkSyntaxError,
  JSON_MODULE,
  jsonModuleOf,
  STARLARK_GO_CHANGES,
  STARLARK_GO_HEAD,
  starlarkGoRelease,
  toHostString,
  type StarlarkGoRelease,
} from '../../../src/starlark/index.ts';

/** The pins of the catalog's starlark images (builtins/docs/starlark.md). */
const V0_4_3 = starlarkGoRelease('v0.0.0-20210901212718-87f333178d59')!;
const V0_5_0 = starlarkGoRelease('v0.0.0-20230302034142-4b1e35fe2254')!;
const V0_5_1 = starlarkGoRelease('v0.0.0-20250417143717-f57e51f710eb')!;

function run(source: string, release: StarlarkGoRelease): string {
  const out: string[] = [];
  try {
    execFile({
      filename: 'r.star',
      source,
      release,
      dialect: { set: true },
      predeclared: { json: jsonModuleOf(release) },
      print: (m) => out.push(m),
    });
  } catch (e) {
    out.push(`error: ${isStarlarkSyntaxError(e) ? e.format() : (e as Error).message}`);
  }
  return out.join('\n');
}

describe('starlarkGoRelease', () => {
  it('reads pseudo-versions and dates, and refuses anything else', () => {
    expect(starlarkGoRelease('2022-02-22')!.has('stringRemoveAffix')).toBe(false);
    expect(starlarkGoRelease('2022-02-23')!.has('stringRemoveAffix')).toBe(true);
    expect(starlarkGoRelease('v1.2.3')).toBeUndefined();
    expect(starlarkGoRelease('v0.0.0-2025041714371-f57e51f710eb')).toBeUndefined();
    for (const [c, date] of Object.entries(STARLARK_GO_CHANGES)) {
      expect(STARLARK_GO_HEAD.has(c as keyof typeof STARLARK_GO_CHANGES)).toBe(true);
      expect(V0_4_3.has(c as keyof typeof STARLARK_GO_CHANGES)).toBe(date <= '2021-09-01');
    }
  });
});

describe('behaviour by release', () => {
  it('str.removeprefix exists from 2022-02-23 (#395)', () => {
    const src = 'print("pre-x".removeprefix("pre-"))';
    expect(run(src, V0_4_3)).toBe('error: string has no .removeprefix field or method');
    expect(run(src, V0_5_0)).toBe('x');
    expect(run('print(hasattr("", "removesuffix"), "removesuffix" in dir(""))', V0_4_3)).toBe('False False');
  });

  it('dict | dict exists from 2022-08-17 (#397), for | and |=', () => {
    expect(run('print({"a": 1} | {"b": 2})', V0_4_3)).toBe('error: unknown binary op: dict | dict');
    const augmented = 'def f():\n  d = {"a": 1}\n  d |= {"b": 2}\n  print(d)\nf()';
    expect(run(augmented, V0_4_3)).toBe('error: unknown binary op: dict | dict');
    expect(run(augmented, V0_5_0)).toBe('{"a": 1, "b": 2}');
  });

  it('sets gain their methods in three steps (#497, #506, #573)', () => {
    const src = 's = set([1])\nprint(s.union([2]))\ns.add(3)\nprint(s.difference([1]))\ns.update([4])\nprint(s)';
    expect(run(src, V0_5_0)).toBe('set([1, 2])\nerror: set has no .add field or method');
    expect(run(src, starlarkGoRelease('2023-09-01')!)).toBe(
      'set([1, 2])\nerror: set has no .difference field or method',
    );
    expect(run(src, starlarkGoRelease('2024-01-01')!)).toBe(
      'set([1, 2])\nset([3])\nerror: set has no .update field or method',
    );
    expect(run(src, V0_5_1)).toBe('set([1, 2])\nset([3])\nset([1, 3, 4])');
  });

  it("json.encode writes floats with Go's %g before #564, as str does after", () => {
    const src = 'print(json.encode([1.0, 1.5, 1e6, 123456789.0, 0.00001, 1e21, -0.0]))';
    expect(run(src, V0_5_0)).toBe('[1,1.5,1e+06,1.23456789e+08,1e-05,1e+21,-0]');
    expect(run(src, V0_5_1)).toBe('[1.0,1.5,1e+06,1.23456789e+08,1e-05,1e+21,-0.0]');
  });

  it('json.decode takes a default from #466', () => {
    const src = 'print(json.decode("nope", None))';
    expect(run(src, V0_5_0)).toBe('error: json.decode: got 2 arguments, want 1');
    expect(run(src, V0_5_1)).toBe('None');
  });

  it('json.encode_indent is a member only from #615', () => {
    const src = 'print(json.encode_indent({"a": 1}, indent = " "))';
    expect(run(src, V0_5_1)).toBe('error: module has no .encode_indent field or method');
    expect(run(src, STARLARK_GO_HEAD)).toBe('{\n "a": 1\n}');
    expect(jsonModuleOf(STARLARK_GO_HEAD)).toBe(JSON_MODULE);
  });

  it('HEAD is the default', () => {
    const out: string[] = [];
    execFile({ filename: 'h.star', source: 'print("ab".removesuffix("b"), {} | {})', print: (m) => out.push(m) });
    expect(out.map((m) => toHostString(m))).toEqual(['a {}']);
  });
});

describe('static checks by release', () => {
  const V0_1 = starlarkGoRelease('v0.0.0-20200306205701-8dd3e2ee1dd5')!;
  const V0_2 = starlarkGoRelease('v0.0.0-20210406145628-7a1108eaa012')!;
  it('refuses floating point before 2020-11-11 (#313), and lambda and nested def before 2021-01-21 (#328)', () => {
    const src = 'x = 1.5\ny = float(3)\nz = 7 / 2\nf = lambda: 1\ndef g():\n  def h():\n    pass\n';
    expect(run(src, V0_1)).toBe(
      [
        // starlark-go's order: the walk's errors, then the uses resolved at the end (`float`).
        'error: r.star:1:5: this Starlark dialect does not support floating point',
        'r.star:3:7: this Starlark dialect does not support floating point (use //)',
        'r.star:4:5: this Starlark dialect does not support lambda',
        'r.star:6:3: this Starlark dialect does not support nested def',
        'r.star:2:5: this Starlark dialect does not support floating point',
      ].join('\n'),
    );
    expect(run(src, V0_2)).toBe('');
    expect(run('print(7 // 2)', V0_1)).toBe('3');
  });
});

describe('builtin keyword errors by release', () => {
  it('adds the spelling hint from 2022-02-13 (#393)', () => {
    const src = 'max([1], kez = len)';
    expect(run(src, starlarkGoRelease('v0.0.0-20200306205701-8dd3e2ee1dd5')!)).toBe(
      'error: max: unexpected keyword argument "kez"',
    );
    expect(run(src, V0_5_0)).toBe('error: max: unexpected keyword argument "kez" (did you mean key?)');
  });
});
