# Run-time strings (Numba's unicode_type) inside kernels, against Numba:
# tests/e2e/run_ustr_oracle.py. Each kernel returns strings and numbers
# as uf_call gives them (a string: `ufjit call -o` writes a NumPy str).
import numpy as np
from numba import njit, prange


@njit
def choose(x):
    s = 'a' if x > 0 else 'bc'
    return s, len(s)


@njit
def joined(x):
    if x > 0:
        s = 'pos'
    else:
        s = 'neg'
    return s + '!'


@njit
def concat(n):
    s = 'ab'
    t = s + str(n)
    return t, len(t), t[1], t == 'ab5', t != 'ab5'


@njit
def compare(x):
    s = 'abc' if x > 0 else 'abd'
    return s < 'abd', s <= 'abc', s > 'ab', s >= 'abd', s == 'abc'


@njit
def contains(x):
    s = 'hello world' if x > 0 else ''
    return 'lo w' in s, 'xyz' in s, '' in s, 'o' not in s


@njit
def repeat(n):
    s = 'ab' if n > 1 else 'c'
    return s * n, n * s, len(s * n)


@njit
def index(i):
    s = 'h\u00e9\u4e2d\U0001f600z'
    return s[i], ord(s[i])


@njit
def slices(a, b, c):
    s = 'abcdefg' if a < 100 else ''
    return s[a:b:c], s[a:], s[:b], s[::-1], s[::c]


@njit
def loop_chars(x):
    s = 'x\u00e9y' if x > 0 else 'q'
    n = 0
    out = ''
    for c in s:
        n = n * 1000003 + ord(c)
        out = c + out
    return n, out


@njit
def str_of(n):
    return str(n), str(-n), str(n > 0), str(np.uint64(n)), str(np.int8(n))


@njit
def ord_chr(c):
    return chr(c), ord(chr(c))


@njit
def ord_bad(x):
    s = 'ab' if x > 0 else ''
    return ord(s)


@njit
def build(n):
    s = ''
    for i in range(n):
        s += str(i % 10)
    return s, len(s)


@njit
def helper(s, k):
    return s + s[k]


@njit
def through_helper(x):
    t = 'xy' if x > 0 else 'zw'
    return helper(t, -1), helper('lit', 0)


@njit
def truth(x):
    s = 'abc' if x > 0 else ''
    r = 0
    if s:
        r += 1
    if not s:
        r += 10
    return r


@njit
def empty(x):
    s = '' if x > 0 else 'a'
    return s, len(s), s + s, s * 3


@njit
def give_literal():
    return 'lit\u00e9ral'


@njit
def print_it(x):
    s = 'p' if x > 0 else 'q'
    print(s + '1')
    return len(s)


# ---- refused ------------------------------------------------------------

@njit
def plus_int(x):
    s = 'a' if x > 0 else 'b'
    return s + 1


@njit
def percent(n):
    return '%d' % n


@njit
def fmt(n):
    return '{}'.format(n)


@njit
def store(x):
    s = 'a' if x[0] > 0 else 'b'
    x[0] = s
    return x


@njit(parallel=True)
def in_prange(n):
    r = 0
    for i in prange(n):
        r += len(str(i))
    return r


@njit
def str_float(x):
    return str(x)


# ---- methods (appended: the refusals above keep their lines) --------------

@njit
def pick(k):
    if k == 0:
        return 'abca'
    if k == 1:
        return '-12'
    if k == 2:
        return ''
    if k == 3:
        return '\u3000 Hello World\t'
    if k == 4:
        return "they're 4x bIG"
    return 'x\u00e9y'


@njit
def m_case(k):
    s = pick(k)
    return s.upper(), s.lower(), s.title(), s.capitalize(), s.swapcase()


@njit
def m_strip(k):
    s = pick(k)
    return s.strip(), s.lstrip(), s.rstrip('\t'), s.strip('ab'), s.strip(None)


@njit
def m_search(k):
    s = pick(k)
    return (s.startswith('a'), s.endswith('a', 0, 1), s.startswith('', 4),
            s.find('a', -3), s.rfind('a', 0, 2), s.count('a'), s.count(''),
            s.find('l'), s.rfind('l'), s.count('l', 2, -2))


@njit
def m_replace(k):
    s = pick(k)
    return (s.replace('a', 'xy', 1), s.replace('', '-'), s.replace('l', ''),
            s.replace('a', 'A', 0))


@njit
def m_is(k):
    s = pick(k)
    return (s.isdigit(), s.isalpha(), s.isalnum(), s.isspace(), s.isupper(),
            s.islower())


@njit
def m_pad(k):
    s = pick(k)
    return s.zfill(6), s.rjust(6, '*'), s.ljust(2), s.center(9), s.center(8, '.')


@njit
def m_index(k):
    s = pick(k)
    return s.index('a') + 10 * s.rindex('a')


@njit
def m_fill(k):
    return pick(k).center(9, 'ab')


@njit
def m_space(k):
    s = ' \t\n\x1c\x85\xa0\u2003\u3000' if k > 0 else ' a '
    return s.isspace(), len(s.strip())


@njit
def m_format(n):
    s = 'ab' if n > 0 else 'c'
    return s.format(n)


# ---- f-strings (appended) ---------------------------------------------------

@njit
def fstr(n):
    s = 'ab' if n > 0 else 'c'
    return (f'{s}-{n}', f'x{{y}}{n * 2}z', f'', f'plain', f'{s}',
            f"{n > 1}|{str(n)[0]}|{'q'}")


@njit
def fstr_spec(n):
    return f'{n:5d}'


@njit
def fstr_float(x):
    return f'{x}'


# ---- lists of strings, split and join (appended) ----------------------------

@njit
def lst_build(n):
    l = ['ab', 'c']
    for i in range(n):
        l.append(str(i) + '!')
    t = ''
    for s in l:
        t += s
    return len(l), l[-1], l[0], t


@njit
def lst_literal(n):
    l = ['x', 'x']
    l.append('yz')
    x = l.pop()
    l.insert(0, 'z')
    l[1] = 'q'
    return l[0] + l[1] + x, len(l)


@njit
def lst_split(k):
    s = 'a,b,,c' if k == 0 else ('  x  y z  ' if k == 1 else '')
    p = s.split(',')
    q = s.split()
    t = s.split(',', 1)
    return len(p), '|'.join(p), len(q), '|'.join(q), '|'.join(t)


@njit
def lst_wsplit(k, m):
    s = 'a  b   c  d ' if k == 0 else ' x'
    return '|'.join(s.split(None, m)), len(s.split(None, m))


@njit
def lst_empty_sep(k):
    return len('abc'.split(''))


@njit
def lst_roundtrip(n):
    words = ''
    for i in range(n):
        words += str(i) + ' '
    parts = words.split()
    parts.reverse()
    return '-'.join(parts), len(parts)


@njit
def tuple_in(k):
    s = 'the' if k == 0 else ('cat' if k == 1 else 'a')
    t = 'a' + ''
    return (s in ('the', 'a'), s not in ('x', 'cat'), s in ('q', t),
            'a' in ('b', t))


@njit
def tuple_loop(k):
    n = 0
    out = ''
    x = 'zz' + str(k)
    for s in ('a', 'bc', x, 'a'):
        n += len(s)
        out = s + out
    return n, out
