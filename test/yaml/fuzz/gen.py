# Random package files for checking the YAML layer against the real kpt (dev tool, not a test).
# usage: python3 gen.py SEED COUNT OUTDIR [adv] [rich]   (adv: comments at random columns; rich: tags,
# anchors, explicit/long keys, odd scalars, several documents). See kpt-check.sh.
import random, sys, os
seed = int(sys.argv[1]); count = int(sys.argv[2]); out = sys.argv[3]; adv = 'adv' in sys.argv[4:]
R = random.Random(seed)
words = ['alpha','beta','gamma','x','y','name','value','port','image','nginx:1.2','true','123','0755','yes','~','a b','it\'s','']
rich = 'rich' in sys.argv[4:]
if rich: words += ['a\tb', '😀 ok', 'x: y', 'a #b', '-dash', '- item', '*star', '0x1F', '1e3', '2001-12-14', 'null', 'NULL', '@at', '%pct', 'trailing ', ' lead', 'é', '日本']
anchors = []
def scalar(ind):
    r = R.random()
    w = R.choice(words)
    if rich and R.random() < 0.08:
        if anchors and R.random() < 0.5: return '*' + R.choice(anchors)
        a = 'an' + str(len(anchors)); anchors.append(a); return '&' + a + ' ' + (w if w and w[0].isalnum() else 'v')
    if rich and R.random() < 0.06: return R.choice(['!!str 123', '!!int "42"', '!mytag v', '! x', '!!float 1'])
    if rich and R.random() < 0.05: return '|2\n' + ' '*(ind+4) + 'indented\n' + ' '*(ind+2) + 'x'
    if rich and R.random() < 0.04: return '{a: 1, # in flow\n' + ' '*(ind+2) + 'b: 2}'
    if r < 0.45: return w if w and w not in ('it\'s',) else 'plain'
    if r < 0.6: return "'" + w.replace("'", "''") + "'"
    if r < 0.75: return '"' + w + '"'
    if r < 0.85:
        h = R.choice(['|', '|-', '|+', '>', '>-'])
        lines = [R.choice(words[:8]) for _ in range(R.randint(1,3))]
        return h + '\n' + ''.join(' '*(ind+2) + l + '\n' for l in lines).rstrip('\n') + ('\n' if h.endswith('+') and R.random()<0.5 else '')
    if r < 0.92: return '[' + ', '.join(R.choice(words[:6]) for _ in range(R.randint(0,3))) + ']'
    return '{' + ', '.join(f'{k}: {R.choice(words[:6])}' for k in R.sample(words[:6], R.randint(0,2))) + '}'
def comment_lines(ind, parent_ind, child_ind):
    out = []
    for _ in range(R.randint(1,2)):
        if adv: col = R.randint(0, 8)
        else: col = R.choice([ind, ind, parent_ind, child_ind])
        out.append(' '*col + '# c' + str(R.randint(0,99)))
        if R.random() < 0.3: out.append('')
    return out
def maybe_comments(lines, ind, parent_ind, child_ind, p=0.25):
    if R.random() < p: lines.extend(comment_lines(ind, parent_ind, child_ind))
    if R.random() < 0.15: lines.append('')
def lc():
    return (' # l' + str(R.randint(0,99))) if R.random() < 0.15 else ''
def mapping(lines, ind, depth, step, parent_ind, first_inline=None, keys=None):
    n = R.randint(1, 4)
    pool = ['a','b','c','d','e','f','g','h','spec','data','items','list']
    if rich: pool += ['"quoted k"', "'single k'", 'k' * 130, '? explicit', '<<']
    ks = keys or R.sample(pool, n)
    for i, k in enumerate(ks):
        prefix = ' '*ind
        if i == 0 and first_inline is not None:
            prefix = first_inline
        else:
            maybe_comments(lines, ind, parent_ind, ind+step)
        r = R.random()
        if k == '? explicit':
            lines.append(f'{prefix}? explicit{lc()}'); lines.append(' '*ind + ': ' + R.choice(words[:6])); continue
        if k == '<<':
            if anchors: lines.append(f'{prefix}<<: *' + anchors[-1])
            continue
        if depth < 3 and r < 0.3:
            lines.append(f'{prefix}{k}:{lc()}')
            maybe_comments(lines, ind+step, ind, ind+2*step, 0.15)
            mapping(lines, ind+step, depth+1, step, ind)
        elif depth < 3 and r < 0.5:
            lines.append(f'{prefix}{k}:{lc()}')
            sind = ind + (step if R.random() < 0.5 else 0)
            sequence(lines, sind, depth+1, step, ind)
        else:
            s = scalar(ind)
            lines.append(f'{prefix}{k}: {s}' + ('' if s[0] in '|>' else lc()))
def sequence(lines, ind, depth, step, parent_ind):
    for i in range(R.randint(1,3)):
        if i > 0 or R.random() < 0.2: maybe_comments(lines, ind, parent_ind, ind+2)
        r = R.random()
        if depth < 3 and r < 0.4:
            mapping(lines, ind+2, depth+1, 2, ind, first_inline=' '*ind + '- ')
        else:
            s = scalar(ind)
            lines.append(' '*ind + '- ' + s + ('' if s[0] in '|>' else lc()))
os.makedirs(out, exist_ok=True)
for f in range(count):
    lines = []
    if R.random() < 0.3: lines += ['# head ' + str(f)] + ([''] if R.random() < 0.5 else [])
    step = R.choice([2, 2, 4])
    lines += ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', ' '*step + 'name: n' + str(f)]
    mapping(lines, 0, 0, step, 0)
    if R.random() < 0.3: lines += ([''] if R.random() < 0.5 else []) + comment_lines(0, 0, 2)
    if rich and R.random() < 0.4:
        lines += [R.choice(['---', '--- # sep', '---']), 'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: second' + str(f)]
        anchors.clear()
        mapping(lines, 0, 0, step, 0)
    anchors.clear()
    open(f'{out}/f{f:04d}.yaml', 'w').write('\n'.join(lines) + '\n')
