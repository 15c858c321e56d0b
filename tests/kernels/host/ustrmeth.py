# String methods with Unicode case and classes (Numba's unicode_type
# methods), against Numba: tests/e2e/run_ustrmeth_oracle.py. Each kernel
# picks a text by number and returns strings and numbers (lists joined
# with '|', as uf_call returns no list of strings).
from numba import njit


@njit
def text(k):
    if k == 0:
        return ''
    if k == 1:
        return 'Hello World, hi'
    if k == 2:
        return 'Stra\u00dfe \ufb01x \u00df'
    if k == 3:
        return '\u039f\u0394\u03a5\u03a3\u03a3\u0395\u03a5\u03a3 \u03a3\u0391 \u03a3'
    if k == 4:
        return '\u0130stanbul \u0131i I'
    if k == 5:
        return '\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440'
    if k == 6:
        return '\u4e2d\u6587\u5b57 \uff41\uff22'
    if k == 7:
        return 'e\u0301 a\u0308b \u0345'
    if k == 8:
        return '\u0663\u0664 \u00bd \u00b2 \u216b 7'
    if k == 9:
        return '\u01c5ungla \u01c8 \u01c6'
    if k == 10:
        return "they're bill's FRIENDS from the UK"
    if k == 11:
        return 'a\tb\n\tc\r\n\td\x0be\x1cf\u2028g\x85h\r'
    if k == 12:
        return '_ident9 x\u0101'
    return '\u1e9e\u0149 \U00010428\U00010400 \u1f80'


@njit
def case(k):
    s = text(k)
    return (s.upper(), s.lower(), s.title(), s.capitalize(), s.swapcase(),
            s.casefold())


@njit
def classes(k):
    s = text(k)
    return (s.isalpha(), s.isalnum(), s.isdigit(), s.isdecimal(),
            s.isnumeric(), s.isspace(), s.isprintable(), s.isidentifier(),
            s.isupper(), s.islower(), s.istitle(), s.isascii())


@njit
def word_classes(k):
    out = ''
    for w in text(k).split(' '):
        out += (str(w.isalpha()) + str(w.isalnum()) + str(w.isdigit()) +
                str(w.isdecimal()) + str(int(w.isnumeric())) +
                str(int(w.isprintable())) + str(int(w.isidentifier())) +
                str(int(w.isupper())) + str(int(w.islower())) +
                str(int(w.istitle())) + str(w.isascii()) + '|')
    return out


@njit
def char_classes(k):
    out = ''
    for c in text(k):
        out += (str(c.isalpha()) + str(c.isdigit()) + str(c.isdecimal()) +
                str(int(c.isnumeric())) + str(int(c.isspace())) +
                str(int(c.isprintable())) + str(int(c.isupper())) +
                str(int(c.islower())) + str(int(c.istitle())) + ' ')
    return out


@njit
def word_case(k):
    out = ''
    for w in text(k).split(' '):
        out += w.title() + w.capitalize() + w.upper() + w.lower() + '|'
    return out


@njit
def sigma(k):
    # final sigma: a cased letter before it, none after (case-ignorables
    # skipped)
    s = '1\u03a3'
    if k == 0:
        s = '\u03a3'
    elif k == 1:
        s = 'A\u03a3'
    elif k == 2:
        s = 'A\u03a3B'
    elif k == 3:
        s = 'A\u03a3.'
    elif k == 4:
        s = 'A.\u03a3'
    elif k == 5:
        s = 'A\u03a3\u0301'
    elif k == 6:
        s = '\u03a3\u0391'
    elif k == 7:
        s = 'A\u03a3 B'
    elif k == 8:
        s = "A'\u03a3'"
    return s.lower(), s.title(), s.capitalize(), s.swapcase(), s.casefold()


@njit
def literal_case(k):
    return ('stra\u00dfe'.upper(), '\u0130'.lower(), '\ufb01'.title(),
            '\u01c6'.capitalize(), 'ab'.isascii(), '\u00e9'.isascii())


@njit
def partition(k):
    s = text(k)
    p = s.partition(' ')
    r = s.rpartition(' ')
    q = s.partition('\u00df')
    return p[0], p[1], p[2], r[0], r[1], r[2], q[0], q[2]


@njit
def partition_missing(k):
    s = text(k)
    p = s.partition('zz')
    r = s.rpartition('zz')
    return p[0], p[1], p[2], r[0], r[1], r[2], len(p)


@njit
def partition_empty(k):
    return text(k).partition('')[0]


@njit
def rpartition_empty(k):
    return text(k).rpartition('')[0]


@njit
def rsplit(k, m):
    s = text(k)
    a = s.rsplit(None, m)
    b = s.rsplit(' ', m)
    c = s.rsplit()
    d = s.rsplit('l')
    return '|'.join(a), len(a), '|'.join(b), len(b), '|'.join(c), '|'.join(d)


@njit
def rsplit_multi(k):
    s = 'a--b----c--' if k == 0 else '--'
    return ('|'.join(s.rsplit('--')), '|'.join(s.rsplit('--', 2)),
            '|'.join(s.rsplit('---')), '|'.join('aaa'.rsplit('aa')))


@njit
def rsplit_ascii_space(k):
    # Numba: an all-ASCII string splits at C's whitespace only (not
    # \x1c..\x1f), any other string at Unicode's
    s = 'a\x1cb c' if k == 0 else 'a\x1cb \u00e9'
    return '|'.join(s.rsplit()), '|'.join(s.rsplit(None, 1))


@njit
def rsplit_empty(k):
    return len(text(k).rsplit(''))


@njit
def splitlines(k):
    s = text(k)
    a = s.splitlines()
    b = s.splitlines(True)
    c = s.splitlines(1)
    return '|'.join(a), len(a), '|'.join(b), len(b), '|'.join(c)


@njit
def expandtabs(k, n):
    s = text(k)
    return s.expandtabs(), s.expandtabs(n), 'x\ty\r\tz'.expandtabs(n)


@njit
def str_function(k):
    return str.isdigit(text(k))


@njit
def partition_bad(k):
    return text(k).partition(1)
