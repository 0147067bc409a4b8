#!/usr/bin/env python3
"""ratios.py — reads colony_bench's Google Benchmark JSON and prints the issue's targets
(PASS/MISS) and a compact per-variant table of the counters.

    python3 bench/ratios.py build/bench.json [--strict]

With repetitions the median aggregate of each benchmark is used, otherwise the median of
its runs. Targets name the largest N present, so a --tiny run prints the same table at
toy sizes. --strict exits 1 when a target is missed or missing. The paired kills
(paired/kill/...) are listed after the targets, each against the limit of the target it
checks (one, pools against swap-one at 50 % of the smallest size, has none); they do not
count towards the targets met. Beside each target stands the speed its benchmarks ran at
(cpu_ghz: dependent adds per ns, bench/cpu_speed.h), and a ratio whose two sides ran more
than 10 % apart in speed is named after the table.
"""
import json
import re
import statistics
import sys

VARIANTS = ["pools", "pools_swap_one", "heap", "size_buckets"]


def read_doc(path):
    """The benchmark JSON, or exit 2 with one line naming the file."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"{path}: cannot read benchmark JSON: {e}", file=sys.stderr)
        sys.exit(2)


def load(doc):
    """name -> {counter: median value}, plus the run context."""
    runs, medians = {}, {}
    for b in doc.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        name = b.get("run_name", b["name"])
        counters = {k: v for k, v in b.items() if isinstance(v, (int, float)) and k not in
                    ("family_index", "per_family_instance_index", "repetitions", "repetition_index",
                     "threads", "iterations", "real_time", "cpu_time")}
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[name] = counters
        else:
            runs.setdefault(name, []).append(counters)
    table = {}
    for name, rs in runs.items():
        table[name] = {k: statistics.median(r[k] for r in rs if k in r) for k in rs[0]}
    table.update(medians)
    return table, doc.get("context", {})


def spread(doc):
    """name -> coefficient of variation (%) of its main counter, when repetitions ran."""
    out = {}
    for b in doc.get("benchmarks", []):
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "cv":
            for key in ("ns_per_ant", "gb_per_s", "ticks_per_s", "ms"):
                if key in b:
                    out[b.get("run_name", b["name"])] = 100.0 * b[key]
    return out


# The paired kills (both variants in one process, taking turns) and the target limit each
# one checks: (a, b, percent) -> limit on a / b. A pair not listed is printed without one.
PAIRED_LIMITS = {("pools", "pools_swap_one", 10): 1.0, ("pools", "heap", 50): 0.35}


def paired_block(doc, table):
    """Prints each paired/kill benchmark's ratio: median and range over the repetitions."""
    ratios = {}
    for b in doc.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if name.startswith("paired/") and b.get("run_type") != "aggregate" and "ratio" in b:
            ratios.setdefault(name, []).append(b["ratio"])
    if not ratios:
        return
    print()
    print("paired kills (both variants in one process, taking turns; the same moments of the machine):")
    for name in sorted(ratios):
        m = re.fullmatch(r"paired/kill/([a-z_]+)_vs_([a-z_]+)/(\d+)/(\d+)", name)
        if not m:
            continue
        a, b, n, pct = m.group(1), m.group(2), m.group(3), int(m.group(4))
        rs = ratios[name]
        row = table.get(name, {})
        limit = PAIRED_LIMITS.get((a, b, pct))
        verdict = "" if limit is None else f"  limit {limit:g}: " + ("within" if statistics.median(rs) <= limit else "beyond")
        print(f"  {a} / {b} at {n} ants, {pct} %: ratio {statistics.median(rs):.3f} "
              f"(range {min(rs):.3f}-{max(rs):.3f} over {len(rs)}; "
              f"{row.get('a_ns_per_ant', float('nan')):.4g} / {row.get('b_ns_per_ant', float('nan')):.4g} ns per ant)"
              + verdict)


def passes_block(table):
    """Prints the engine's own split of its batched releases (ns per victim) for every
    benchmark that reports one: the batched kills and the bomb."""
    rows = []
    for name in sorted(table):
        row = table[name]
        if "mark_ns" not in row or name.startswith("paired/"):
            continue
        closes = [(k[len("close_"):-len("_ns")], v) for k, v in sorted(row.items()) if k.startswith("close_") and k.endswith("_ns")]
        total = row.get("sort_ns", 0) + row["mark_ns"] + sum(v for _, v in closes)
        rows.append(f"  {name:<24} {total:7.1f} = sort {row.get('sort_ns', 0):.1f} + mark {row['mark_ns']:.1f} + close "
                    + " + ".join(f"{n} {v:.1f}" for n, v in closes if v >= 0.05))
    if rows:
        print()
        print("the batched release's passes, ns per victim (the engine's own timing: World::release_totals):")
        print("\n".join(rows))


def traffic_block(table):
    """Prints each tick/full benchmark's memory traffic (its bytes_per_ant model moved at
    its rate) as a fraction of what stream/rmw moved in the same run. stream/rmw's gb_per_s
    counts each float once; it reads every line in and writes it back, so it moves twice
    that, the currency bytes_per_ant counts in."""
    names = sorted((int(m.group(1)), int(m.group(2)), k) for k, m in
                   ((k, re.fullmatch(r"tick/full/(\d+)/threads:(\d+)", k)) for k in table) if m)
    if not names:
        return
    stream = table.get("stream/rmw", {}).get("gb_per_s")
    moved = 2 * stream if stream else None
    print()
    print("the full model's memory traffic (bytes_per_ant: every touch a cache line, bench/README.md) against "
          + (f"stream/rmw's {moved:.2f} GB/s moved ({stream:.2f} GB/s of floats read and written back):"
             if moved else "stream/rmw (missing):"))
    for _, _, name in names:
        row = table[name]
        gbs = row.get("mem_gb_per_s")
        frac = f"{gbs / moved:.3f} of stream/rmw" if gbs is not None and moved else "-"
        print(f"  {name:<32} {row.get('ticks_per_s', float('nan')):9.4g} ticks/s  "
              f"{row.get('ns_per_ant', float('nan')):7.4g} ns/ant  {row.get('bytes_per_ant', float('nan')):5.0f} B/ant  "
              f"{gbs if gbs is not None else float('nan'):6.3g} GB/s = {frac}  (cpu_ghz {row.get('cpu_ghz', float('nan')):.2f})")


def largest(table, pattern):
    """The name matching pattern (one group: an integer) with the largest integer."""
    best = None
    for name in table:
        m = re.fullmatch(pattern, name)
        if m and (best is None or int(m.group(1)) > best[0]):
            best = (int(m.group(1)), name)
    return best


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    strict = "--strict" in argv
    if len(args) != 1:
        print("usage: ratios.py BENCH.json [--strict]", file=sys.stderr)
        return 2
    doc = read_doc(args[0])
    table, ctx = load(doc)
    cv = spread(doc)

    def value(name, counter):
        return table.get(name, {}).get(counter)

    rows = []  # (target text, measured text, ok or None when missing, speeds text)
    uneven = []  # ratio targets whose two sides ran at speeds more than 10 % apart

    def speed(name):
        g = value(name, "cpu_ghz")
        return f"{g:.2f}" if g is not None else "?"

    def speeds_of(a, b, text):
        """The two sides' speeds as printed beside a target that compares a with b; the
        target joins `uneven` when they differ by more than 10 %."""
        ga, gb = value(a, "cpu_ghz"), value(b, "cpu_ghz")
        if ga and gb and max(ga, gb) > 1.1 * min(ga, gb):
            uneven.append(f"{text} ({ga:.2f} against {gb:.2f})")
        return f"{speed(a)} / {speed(b)}"

    def ratio_target(a, b, counter, limit, text):
        va, vb = value(a, counter), value(b, counter)
        if va is None or vb is None or vb == 0:
            rows.append((text, "missing " + (a if va is None else b), None, ""))
            return
        r = va / vb
        rows.append((text, f"{va:.4g} / {vb:.4g} = {r:.3f}", r <= limit, speeds_of(a, b, text)))

    n_kill = largest(table, r"kill/pools/(\d+)/50")
    n = n_kill[0] if n_kill else 200000
    ratio_target(f"kill/pools/{n}/50", f"kill/pools_swap_one/{n}/50", "ns_per_ant", 0.4,
                 f"kill/pools/{n}/50 <= 0.4 x pools_swap_one")
    ratio_target(f"kill/pools/{n}/50", f"kill/heap/{n}/50", "ns_per_ant", 0.35,
                 f"kill/pools/{n}/50 <= 0.35 x heap")
    sizes = sorted({int(m.group(1)) for m in (re.fullmatch(r"kill/pools/(\d+)/10", k) for k in table) if m})
    for s in sizes or [n]:
        ratio_target(f"kill/pools/{s}/10", f"kill/pools_swap_one/{s}/10", "ns_per_ant", 1.0,
                     f"kill/pools/{s}/10 <= pools_swap_one")
    ratio_target(f"spawn/pools/{n}/10", f"spawn/heap/{n}/10", "ns_per_ant", 0.25,
                 f"spawn/pools/{n}/10 >= 4x faster than heap")
    it_name, it_text = f"iterate/pools/{n}/4", f"iterate/pools/{n}/4 >= 0.85 x stream/rmw"
    it, st = value(it_name, "gb_per_s"), value("stream/rmw", "gb_per_s")
    if it is None or st is None:
        rows.append((it_text, "missing", None, ""))
    else:
        rows.append((it_text, f"{it:.2f} / {st:.2f} GB/s = {it / st:.3f}", it >= 0.85 * st,
                     speeds_of(it_name, "stream/rmw", it_text)))

    def absolute(pattern, counter, ok, text_of, unit):
        found = largest(table, pattern)
        if not found:
            rows.append((text_of("?"), "missing", None, ""))
            return
        v = value(found[1], counter)
        rows.append((text_of(found[1]), f"{v:.4g} {unit}", ok(v), speed(found[1])))

    # tick/full/<N>/threads:<T>: the sizes present, smallest first.
    full_sizes = sorted({int(m.group(1)) for m in (re.fullmatch(r"tick/full/(\d+)/threads:\d+", k) for k in table) if m})

    def full(size, threads):
        return f"tick/full/{size}/threads:{threads}"

    def at_least(name, counter, limit, text, unit):
        v = value(name, counter)
        if v is None:
            rows.append((text, "missing " + name, None, ""))
            return
        rows.append((text, f"{v:.4g} {unit}", v >= limit, speed(name)))

    # One thread at 100,000 ants (the largest size up to it); two threads at the largest.
    one_size = max([n for n in full_sizes if n <= 100000], default=100000)
    at_least(full(one_size, 1), "ticks_per_s", 60, f"{full(one_size, 1)} >= 60 ticks/s", "ticks/s")
    top = full_sizes[-1] if full_sizes else 1000000
    at_least(full(top, 2), "ticks_per_s", 30, f"{full(top, 2)} >= 30 ticks/s", "ticks/s")
    # Two threads against one at the two largest sizes, and the cost per ant of the largest
    # against the next at each thread count.
    for size in full_sizes[-2:] or [top]:
        one, two = full(size, 1), full(size, 2)
        text = f"tick/full/{size} threads:2 >= 1.8 x threads:1"
        v1, v2 = value(one, "ticks_per_s"), value(two, "ticks_per_s")
        if not v1 or v2 is None:
            rows.append((text, "missing " + (one if not v1 else two), None, ""))
        else:
            rows.append((text, f"{v2:.4g} / {v1:.4g} ticks/s = {v2 / v1:.3f}", v2 >= 1.8 * v1,
                         speeds_of(two, one, text)))
    if len(full_sizes) >= 2:
        big, small = full_sizes[-1], full_sizes[-2]
        for threads in (1, 2):
            ratio_target(full(big, threads), full(small, threads), "ns_per_ant", 1.3,
                         f"tick/full/{big} ns_per_ant <= 1.3 x {small}, threads:{threads}")
    absolute(r"tick/chunked/(\d+)", "ticks_per_s", lambda v: v >= 30, lambda nm: f"{nm} >= 30 ticks/s", "ticks/s")
    absolute(r"tick/bomb/(\d+)", "ms", lambda v: v < 2.0, lambda nm: f"{nm} < 2 ms", "ms")

    host = ctx.get("host_name", "?")
    cpus = ctx.get("num_cpus", "?")
    mhz = ctx.get("mhz_per_cpu", "?")
    l3 = [c for c in ctx.get("caches", []) if c.get("level") == 3]
    l3s = f", L3 {l3[0]['size'] // (1 << 20)} MiB" if l3 else ""
    print(f"colony_bench {ctx.get('date', '')} on {host}: {cpus} CPUs @ {mhz} MHz{l3s}, "
          f"load {', '.join(f'{x:.2f}' for x in ctx.get('load_avg', []))}")
    if "pinned_to" in ctx:
        print(f"pinned to {ctx['pinned_to']}")
    print()
    w = max(len(r[0]) for r in rows)
    print(f"{'target':<{w}}  {'measured (median)':<34}  {'result':<7}  cpu_ghz")
    for text, measured, ok, speeds in rows:
        verdict = "MISSING" if ok is None else ("PASS" if ok else "MISS")
        print(f"{text:<{w}}  {measured:<34}  {verdict:<7}  {speeds}")
    if uneven:
        print()
        print("ratios whose two sides ran at speeds more than 10 % apart (cpu_ghz): " + "; ".join(uneven))

    # Compact overview: one line per benchmark case, one column per variant.
    print()
    print(f"{'case (counter)':<44}" + "".join(f"{v:>16}" for v in VARIANTS))
    cases = []
    for name in table:
        m = re.fullmatch(r"(kill|spawn|iterate)/([a-z_]+)/(\d+)/(\d+)", name)
        if m and m.group(2) == "pools":
            cases.append((["kill", "spawn", "iterate"].index(m.group(1)), int(m.group(3)), int(m.group(4)), m.group(1)))
    for _, size, arg, fam in sorted(cases):
        counter = "gb_per_s" if fam == "iterate" else "ns_per_ant"
        cells = []
        for v in VARIANTS:
            x = value(f"{fam}/{v}/{size}/{arg}", counter)
            cells.append(f"{x:>16.4g}" if x is not None else f"{'-':>16}")
        print(f"{fam + '/' + str(size) + '/' + str(arg) + ' (' + counter + ')':<44}" + "".join(cells))
    for size, arg in sorted({(c[1], c[2]) for c in cases if c[3] == "iterate"}):
        cells = []
        for v in VARIANTS:
            x = value(f"iterate/{v}/{size}/{arg}", "bytes_per_live_piece")
            cells.append(f"{x:>16.4g}" if x is not None else f"{'-':>16}")
        print(f"{'iterate/' + str(size) + '/' + str(arg) + ' (bytes_per_live_piece)':<44}" + "".join(cells))
    if cv:
        noisy = sorted(cv.items(), key=lambda kv: -kv[1])[:5]
        print()
        print("noisiest (coefficient of variation across repetitions): " +
              ", ".join(f"{k} {v:.1f}%" for k, v in noisy))

    traffic_block(table)
    passes_block(table)
    paired_block(doc, table)

    missed = sum(1 for r in rows if r[2] is not True)
    print()
    print(f"{len(rows) - missed} of {len(rows)} targets met")
    return 1 if strict and missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
