#!/usr/bin/env python3
"""The solver's structure (issue 28): solver/ includes no public header but
superovoid/status.h, its modules (name.c + name.h) include each other in no
circle, and no function in it is over 60 lines or takes more than 8
parameters. Usage: check_layers.py SOLVER_DIR"""
import glob
import os
import re
import sys

MAX_LINES, MAX_PARAMS = 60, 8


def strip_comments(text):
    """The text with comments and string literals blanked (lengths kept)."""
    out = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    out = re.sub(r'//[^\n]*', lambda m: ' ' * len(m.group(0)), out)
    return re.sub(r'"(\\.|[^"\\])*"', lambda m: '"' + ' ' * (len(m.group(0)) - 2) + '"', out)


def module_graph(files):
    """Module name -> modules it includes; a module is name.c with name.h."""
    graph = {}
    for path in files:
        name = os.path.basename(path).rsplit('.', 1)[0]
        deps = set(re.findall(r'#include "solver/(\w+)\.h"', open(path).read())) - {name}
        graph.setdefault(name, set()).update(deps)
    return graph


def find_cycle(graph):
    """One include circle as a list of modules, or None."""
    state = {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def functions(path):
    """(name, first line, lines, parameters) of each function defined in path."""
    text = strip_comments(open(path).read())
    head = re.compile(r'^[A-Za-z_][\w \t\*]*?\b(\w+)\s*\(([^;{]*?)\)\s*\{', re.M | re.S)
    for m in head.finditer(text):
        if m.group(1) in ('if', 'for', 'while', 'switch', 'return', 'sizeof'):
            continue
        depth, end = 0, m.end() - 1
        while True:
            depth += {'{': 1, '}': -1}.get(text[end], 0)
            if depth == 0:
                break
            end += 1
        params = m.group(2).strip()
        count = 0 if params in ('', 'void') else params.count(',') + 1
        first = text.count('\n', 0, m.start()) + 1
        yield m.group(1), first, text.count('\n', m.start(), end) + 1, count


def main(solver):
    files = sorted(glob.glob(os.path.join(solver, '*.[ch]')))
    problems = []
    for path in files:
        for header in re.findall(r'#include "superovoid/(\w+)\.h"', open(path).read()):
            if header != 'status':
                problems.append(f'{path}: includes the public superovoid/{header}.h')
        if path.endswith('.c') or path.endswith('.h'):
            for name, first, lines, params in functions(path):
                if lines > MAX_LINES:
                    problems.append(f'{path}:{first}: {name} is {lines} lines (> {MAX_LINES})')
                if params > MAX_PARAMS:
                    problems.append(f'{path}:{first}: {name} takes {params} parameters (> {MAX_PARAMS})')
    cycle = find_cycle(module_graph(files))
    if cycle:
        problems.append('include circle: ' + ' -> '.join(cycle))
    count = sum(1 for p in files for _ in functions(p))
    print(f'{len(files)} files, {count} functions; {len(problems)} problems')
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else 'solver'))
