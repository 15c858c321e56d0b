#!/usr/bin/env python3
"""Folds a call trace of ufjit (tracer.c) by source folder: the walk of one
command down the layers, and every call that climbs back into a folder the
walk had already left.

usage: walk.py UFJIT_BINARY TRACE [--steps N]

A folder is an area of the library (cli, api, ufunc, gufunc, reduce, njit,
compiler, targets, ndarray, common). A call "climbs back" when its callee's
folder is on the call stack above the caller's run of frames but is not
the caller's own folder: the walk left that folder and comes back into it
from below (compiler/ calling ufunc/, say). The first N steps (default 200)
are listed folder by folder."""
import collections, subprocess, sys

AREAS = ['cli', 'api', 'ufunc', 'gufunc', 'reduce', 'njit', 'compiler',
         'targets', 'ndarray', 'common']
# what each folder may call (cmake/layers.cmake; cli: the public API, which
# api/, compiler/ (modules) and ndarray/ implement)
BELOW = {
    'cli': {'api', 'compiler', 'ndarray', 'common'},
    'api': set(AREAS),
    'ufunc': {'compiler', 'targets', 'ndarray', 'common'},
    'gufunc': {'ufunc', 'compiler', 'targets', 'ndarray', 'common'},
    'reduce': {'ufunc', 'compiler', 'targets', 'ndarray', 'common'},
    'njit': {'ufunc', 'compiler', 'targets', 'ndarray', 'common'},
    'compiler': {'ndarray', 'common'},
    'targets': {'ndarray', 'common'},
    'ndarray': {'common'},
    'common': set(),
}


def area_of(path):
    parts = path.split('/')
    for i, p in enumerate(parts):
        if p in AREAS and i + 1 < len(parts):
            return p
    return None


def main():
    binary, trace = sys.argv[1], sys.argv[2]
    steps = int(sys.argv[sys.argv.index('--steps') + 1]) \
        if '--steps' in sys.argv else 200
    events = []
    addrs = set()
    with open(trace) as f:
        for line in f:
            if line[0] == '>':
                _, fn, site = line.split()
                events.append((int(fn, 16), int(site, 16)))
                addrs.add(int(fn, 16))
                addrs.add(int(site, 16))
            else:
                events.append(None)
    addrs = sorted(addrs)
    res = subprocess.run(['addr2line', '-f', '-e', binary] +
                         ['%x' % a for a in addrs], capture_output=True,
                         text=True, check=True).stdout.split('\n')
    name, where = {}, {}
    for i, a in enumerate(addrs):
        name[a] = res[2 * i]
        where[a] = area_of(res[2 * i + 1].split(':')[0])
    stack = []          # (area, function) of the frames
    ncalls = climbs = 0
    climb_edges = collections.Counter()
    against = collections.Counter()  # calls against the arrows
    walk = []           # the first steps: (depth, area, function)
    cross = []          # calls into another folder (not common/)
    seen_cross = set()
    for ev in events:
        if ev is None:
            if stack:
                stack.pop()
            continue
        fn, site = ev
        callee = where.get(fn)
        # the caller is the innermost frame of ours on the stack (a return
        # address may fall past its function: the site is not used)
        caller = next((a for a, _ in reversed(stack) if a is not None),
                      None)
        if callee is None:
            stack.append((None, name[fn]))
            continue
        ncalls += 1
        # the folders left above the caller's run of frames
        above = set()
        k = len(stack) - 1
        while k >= 0 and stack[k][0] in (caller, None):
            k -= 1
        for a, _ in stack[:k + 1]:
            if a is not None:
                above.add(a)
        if caller is not None and callee != caller and \
                callee not in BELOW[caller]:
            cf = next((f for a, f in reversed(stack) if a is not None), '?')
            against[(caller, cf, callee, name[fn])] += 1
        if callee != caller and callee in above:
            climbs += 1
            cf = next((f for a, f in reversed(stack) if a is not None), '?')
            climb_edges[(caller, cf, callee, name[fn])] += 1
        edge = (caller, callee, name[fn])
        if callee != caller and callee != 'common' and edge not in seen_cross:
            seen_cross.add(edge)
            cross.append((len(stack), caller, callee, name[fn]))
        if len(walk) < steps:
            walk.append((len(stack), callee, name[fn],
                         callee != caller and callee in above))
        stack.append((callee, name[fn]))
    print('calls of ufjit functions: %d; climbs back into a folder already '
          'left: %d' % (ncalls, climbs))
    first = sum(1 for w in walk if w[3])
    print('in the first %d steps: %d climbs' % (len(walk), first))
    print('calls against the layering (a folder calling one it may not '
          'include): %d' % sum(against.values()))
    for (ca, cf, ce, fn), n in against.most_common():
        print('  %-8s %-34s -> %-8s %-34s %d' % (ca, cf, ce, fn, n))
    print('\nclimbs (caller folder, caller -> callee folder, callee: count):')
    for (ca, cf, ce, fn), n in climb_edges.most_common():
        print('  %-8s %-34s -> %-8s %-34s %d' % (ca, cf, ce, fn, n))
    print('\nevery call into another folder (common/ left out), first time '
          'each, indented by depth:')
    for depth, ca, ce, fn in cross:
        print('  %s%s -> %s %s' % ('  ' * min(depth, 30), ca, ce, fn))
    print('\nthe first %d steps, one line per change of folder:' % len(walk))
    last = None
    for depth, a, fn, climb in walk:
        if a != last or climb:
            print('  %s%-8s %s%s' % ('  ' * min(depth, 30), a, fn,
                                     '   <- climbs back' if climb else ''))
            last = a


if __name__ == '__main__':
    main()
