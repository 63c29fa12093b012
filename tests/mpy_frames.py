"""What a Python function's frame costs on CircuitPython's Python stack (the pystack), read
from CircuitPython's own mpy-cross output (.mpy format 6).

A call allocates on the pystack: 20 bytes of ``mp_code_state_t`` (32-bit port, no settrace),
4 bytes per state slot (locals and the value stack), 12 per exception-stack entry (one per
nested try/with), rounded up to 8 (py/objfun.c ``fun_bc_call``, py/pystack.c). The prelude
of each function's bytecode holds those counts (py/bc.h ``MP_BC_PRELUDE_SIG_DECODE``).

    frames(mpy_cross, "firmware/companion/app/loop.py")["App.step"]  # -> bytes of one call
"""

import keyword
import os
import subprocess
import tempfile


def frame_bytes(n_state, n_exc):
    return (20 + 4 * n_state + 12 * n_exc + 7) // 8 * 8


def _uint(b, i):
    v = 0
    while True:
        c = b[i]
        i += 1
        v = (v << 7) | (c & 0x7F)
        if not c & 0x80:
            return v, i


def _skip_obj(data, i):
    kind = data[i]
    i += 1
    if kind in (5, 6, 7, 8, 9):  # str, bytes, int, float, complex: a length, the bytes
        n, i = _uint(data, i)
        i += n + (1 if kind in (5, 6) else 0)
    elif kind == 10:  # tuple
        n, i = _uint(data, i)
        for _ in range(n):
            i = _skip_obj(data, i)
    return i


def parse(data):
    """The module's code tree: (name, n_state, n_exc, children); a name is a str, or an int
    for one of the format's static qstrs."""
    if data[:1] != b"C" or data[1] != 6:
        raise ValueError("not a CircuitPython .mpy of format 6")
    i = 4
    n_qstr, i = _uint(data, i)
    n_obj, i = _uint(data, i)
    names = []
    for _ in range(n_qstr):
        n, i = _uint(data, i)
        if n & 1:
            names.append(n >> 1)
        else:
            names.append(data[i:i + (n >> 1)].decode())
            i += (n >> 1) + 1
    for _ in range(n_obj):
        i = _skip_obj(data, i)

    def raw(i):
        head, i = _uint(data, i)
        if head & 3:
            raise ValueError("native code in the .mpy")
        code = data[i:i + (head >> 3)]
        i += head >> 3
        z = code[0]
        j = 1
        s, e, n = (z >> 3) & 0xF, (z >> 2) & 1, 0
        while z & 0x80:
            z = code[j]
            j += 1
            s |= (z & 0x30) << (2 * n)
            e |= (z & 0x02) << n
            n += 1
        while code[j] & 0x80:  # the size byte(s): n_info, n_cell
            j += 1
        name, _ = _uint(code, j + 1)
        kids = []
        if head & 4:
            count, i = _uint(data, i)
            for _ in range(count):
                kid, i = raw(i)
                kids.append(kid)
        return (names[name], s + 1, e, kids), i

    return raw(i)[0]


def _compile(mpy_cross, source_path):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "m.mpy")
        subprocess.run([mpy_cross, "-o", out, source_path], check=True, capture_output=True)
        with open(out, "rb") as f:
            return parse(f.read())


def _static_names(mpy_cross, names):
    """The static-qstr numbers of ``names`` (those the format keeps in its fixed table)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "n.py")
        with open(src, "w") as f:
            for name in names:
                f.write("def {}():\n    pass\n".format(name))
        tree = _compile(mpy_cross, src)
    return {kid[0]: name for kid, name in zip(tree[3], names) if isinstance(kid[0], int)}


def frames(mpy_cross, source_path):
    """{"Class.method" or "function": frame bytes} for every function of a source file (a
    name defined twice keeps the larger frame), and "<module>" for the module's own code."""
    tree = _compile(mpy_cross, source_path)
    with open(source_path) as f:
        words = set(f.read().replace("(", " ").replace(":", " ").split())
    names = sorted(w for w in words if w.isidentifier() and not keyword.iskeyword(w))
    static = _static_names(mpy_cross, names)
    out = {}

    def walk(node, prefix):
        for kid in node[3]:
            name = static.get(kid[0], kid[0]) if isinstance(kid[0], int) else kid[0]
            path = prefix + str(name)
            size = frame_bytes(kid[1], kid[2])
            out[path] = max(size, out.get(path, 0))
            walk(kid, path + ".")

    out["<module>"] = frame_bytes(tree[1], tree[2])
    walk(tree, "")
    return out
