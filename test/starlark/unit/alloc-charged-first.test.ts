// Every builtin that can produce a value much larger than its inputs charges the allocation budget
// before it allocates: the script ends with the budget's limit error, never with a host-size
// failure ("result too large", out of memory) or a success the budget should have refused.
// The sizes here would need gigabytes if built; the budget is 64 MiB.
import { describe, expect, it } from 'vitest';
import { JSON_MODULE, execFile, isStarlarkLimitError } from 'krmfn/starlark';

const BUDGET = 64 * 1024 * 1024;
const DIALECT = { set: true, while: true, topLevelControl: true, globalReassign: true, recursion: true };

function run(source: string): unknown {
  try {
    execFile({ filename: 'a.star', source, dialect: DIALECT, limits: { maxAllocBytes: BUDGET } });
  } catch (e) {
    return e;
  }
  return undefined;
}

const BIG = 's = "x" * 1000000\n';

describe('allocation is charged before the value exists', () => {
  it.each([
    ['split into many parts', 's = "x," * 4000000\nparts = s.split(",")\n'],
    ['rsplit into many parts', 's = "x," * 4000000\nparts = s.rsplit(",")\n'],
    ['split on whitespace', 's = "x " * 4000000\nparts = s.split()\n'],
    ['replace growing the text', BIG + 'r = s.replace("x", "y" * 1000)\n'],
    ['replace of the empty string', BIG + 'r = s.replace("", "y" * 1000)\n'],
    ['join of a shared string', BIG + 'r = ",".join([s] * 1000)\n'],
    ['string repetition', 'r = "ab" * (1 << 26)\n'],
    ['str of a shared string', BIG + 'r = str([s] * 1000)\n'],
    ['repr of a shared string', BIG + 'r = repr({"k": [s] * 1000})\n'],
    ['% formatting', BIG + 'r = "%s" % ([s] * 1000,)\n'],
    ['format()', BIG + 'r = "{}".format([s] * 1000)\n'],
    ['list.extend with a range', 'l = []\nl.extend(range(1 << 31))\n'],
    ['list += range', 'l = []\nl += range(1 << 31)\n'],
    ['list(range)', 'l = list(range(1 << 31))\n'],
  ])('%s', (_name, source) => {
    const e = run(source);
    expect(isStarlarkLimitError(e) ? e.limit : e).toBe('alloc');
  });

  it('json.encode of a shared string', () => {
    let e: unknown;
    try {
      execFile({
        filename: 'a.star',
        source: BIG + 'r = json.encode([s] * 1000)\n',
        predeclared: { json: JSON_MODULE },
        limits: { maxAllocBytes: BUDGET },
      });
    } catch (err) {
      e = err;
    }
    expect(isStarlarkLimitError(e) ? e.limit : e).toBe('alloc');
  });

  it('leaves room for ordinary work within the budget', () => {
    expect(
      run('s = "a,b " * 1000\nparts = s.split(",")\nr = "-".join(parts).replace("a", "c")\nt = str(parts)\n'),
    ).toBe(undefined);
  });
});
