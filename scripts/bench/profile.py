# SPDX-License-Identifier: GPL-2.0
# gdb script of scripts/bench/profile: stop at FUNC (when COND holds),
# single-step to its return and count instructions per function.
import bisect
from collections import Counter

import gdb

addrs, names = [], []
for line in open(SYMS):
    a, n = line.split()
    addrs.append(int(a, 16))
    names.append(n)


def sym(pc):
    i = bisect.bisect_right(addrs, pc) - 1
    return names[i] if i >= 0 else hex(pc)


gdb.execute("set pagination off")
gdb.execute(f"break {FUNC}", to_string=True)
if COND != "1":
    gdb.execute(f"condition $bpnum {COND}", to_string=True)
gdb.execute("continue", to_string=True)
gdb.execute("delete", to_string=True)
ret = int(gdb.parse_and_eval("*(unsigned long *)$sp"))
sp0 = int(gdb.parse_and_eval("$sp"))
counts = Counter()
order = {}
total = 0
while True:
    pc = int(gdb.parse_and_eval("$pc"))
    if pc == ret and int(gdb.parse_and_eval("$sp")) > sp0:
        break
    s = sym(pc)
    counts[s] += 1
    order.setdefault(s, len(order))
    total += 1
    if total > 200000:
        print("bench-profile: no return after 200000 steps")
        break
    gdb.execute("stepi", to_string=True)

print(f"== {CONFIG}: one call of {FUNC}: {total} instructions")
for s, n in sorted(counts.items(), key=lambda x: (-x[1], order[x[0]])):
    print(f"{n:7d}  {s}")
print()
