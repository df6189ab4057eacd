#!/usr/bin/env python3
"""Merge gwb_bench JSON outputs and print a Markdown table.

Usage: bench_report.py --out MERGED.json [--rss NAME=KIB ...] [--figures FILE] RUN.json...

Each RUN.json is a Google Benchmark JSON file (--benchmark_out_format=json). The merged file
keeps the first file's context and every benchmark, with `peak_rss_kib` added where --rss gives
it (scripts/bench.sh measures it with /usr/bin/time, one process per benchmark). Without an
--rss figure the in-process `peak_rss_MiB` counter (getrusage) is used. With repetitions, only
the median aggregates are shown. --figures names bench/earleyx_figures.tsv.
"""
import argparse
import json
import math
import re
import sys

UNIT_TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def load_figures(path):
    figures = []
    if not path:
        return figures
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t", 1)
            if len(parts) == 2:
                figures.append((re.compile(parts[0]), parts[1].strip()))
    return figures


def si(value):
    """1234567 -> '1.23 M'."""
    for factor, suffix in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if abs(value) >= factor:
            return f"{value / factor:.3g}{suffix}"
    return f"{value:.3g}"


def format_ms(ms):
    """Three or four significant digits: 153, 14.4, 2.47, 0.0341."""
    if ms >= 100:
        return f"{ms:.0f}"
    if ms >= 10:
        return f"{ms:.1f}"
    if ms >= 1:
        return f"{ms:.2f}"
    return f"{ms:.3g}"


def fit_exponent(points):
    """Least-squares slope of log(time) against log(tokens)."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    if sxx == 0:
        return None
    return sum((p[0] - mx) * (p[1] - my) for p in points) / sxx


def print_growth(rows):
    """Fits time ~ tokens^k (and items ~ tokens^k) over the rows of one discourse at growing
    lengths: the inside pass into a new chart and into a reused one (Inside/socialDiscourse/),
    and string probabilities of every prefix with the Viterbi tree (StringProb/socialDiscourse/,
    by end weights and by completing at every word)."""
    print()
    groups = (
        ("Inside/socialDiscourse/", lambda name: "reused" not in name,
         "inside pass, each parse into a new chart"),
        ("Inside/socialDiscourse/", lambda name: "reused" in name,
         "inside pass, parses into a reused chart"),
        ("StringProb/socialDiscourse/",
         lambda name: "complete-every-word" not in name and "reused" not in name,
         "--surprisal --stringprob --viterbi (end weights), each parse into a new chart"),
        ("StringProb/socialDiscourse/", lambda name: "reused" in name,
         "--surprisal --stringprob --viterbi (end weights), parses into a reused chart"),
        ("StringProb/socialDiscourse/", lambda name: "complete-every-word" in name,
         "--stringprob by completing at every word"),
    )
    for prefix, keep, label in groups:
        series = [b for b in rows
                  if b.get("run_name", b["name"]).startswith(prefix)
                  and keep(b.get("run_name", b["name"]))
                  and not b.get("error_occurred") and b.get("tokens", 0) > 0
                  and b.get("real_time", 0) > 0 and b.get("cpu_time", 0) > 0]
        if len(series) < 3:
            continue
        wall = fit_exponent([(math.log(b["tokens"]), math.log(b["real_time"])) for b in series])
        cpu = fit_exponent([(math.log(b["tokens"]), math.log(b["cpu_time"])) for b in series])
        items = None
        if all(b.get("items", 0) > 0 for b in series):
            items = fit_exponent([(math.log(b["tokens"]), math.log(b["items"])) for b in series])
        if wall is None or cpu is None:
            continue
        lo = min(b["tokens"] for b in series)
        hi = max(b["tokens"] for b in series)
        items_text = f", items ~ tokens^{items:.2f}" if items is not None else ""
        print(f"Growth on the discourse grammar, {label}: wall time ~ tokens^{wall:.2f}, "
              f"CPU time ~ tokens^{cpu:.2f}{items_text} (least squares on log-log, "
              f"{len(series)} lengths, {lo:.0f} to {hi:.0f} tokens; Earleyx: about n^1.7).")


def print_speedup(rows):
    """The paired-rounds two-thread speed-up of induction (a `speedup` counter), if measured."""
    for b in rows:
        if "speedup" not in b or b.get("error_occurred"):
            continue
        name = b.get("run_name", b["name"])
        print()
        print(f"{name}: two-thread speed-up {b['speedup']:.2f}x (median of paired rounds; "
              f"{b.get('speedup_min', 0):.2f} to {b.get('speedup_max', 0):.2f}); steady iteration "
              f"{b.get('t1_ms', 0):.1f} ms on 1 thread, {b.get('t2_ms', 0):.1f} ms on 2, of which "
              f"{b.get('serial_ms', 0):.1f} ms outside the E-step (target: 1.8x).")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--rss", action="append", default=[], help="NAME=KIB")
    parser.add_argument("--figures")
    parser.add_argument("runs", nargs="+")
    args = parser.parse_args()

    rss = {}
    for item in args.rss:
        name, _, kib = item.rpartition("=")
        rss[name] = int(kib)

    context, benchmarks = None, []
    for path in args.runs:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        context = context or data.get("context", {})
        benchmarks.extend(data.get("benchmarks", []))

    for b in benchmarks:
        key = b.get("run_name", b["name"])
        if key in rss:
            b["peak_rss_kib"] = rss[key]
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"context": context, "benchmarks": benchmarks}, f, indent=2)

    has_aggregates = any(b.get("run_type") == "aggregate" for b in benchmarks)
    rows, seen = [], set()
    for b in benchmarks:
        name = b.get("run_name", b["name"])
        is_median = b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median"
        is_plain = b.get("run_type") != "aggregate"
        # Without repetitions: every run. With them: the medians, and one row per failed one.
        if (is_median if has_aggregates else is_plain) or (b.get("error_occurred")
                                                             and name not in seen):
            rows.append(b)
            seen.add(name)
    figures = load_figures(args.figures)
    # Iterations of each repetition, by benchmark (for the median rows).
    per_run = {}
    for b in benchmarks:
        if b.get("run_type") == "iteration" and not b.get("error_occurred"):
            per_run.setdefault(b.get("run_name", b["name"]), []).append(b["iterations"])

    build_type = context.get("gwb_build_type", "?")
    print(f"gwb_bench on {context.get('host_name', '?')}, {context.get('num_cpus', '?')} CPUs, "
          f"{context.get('date', '?')}; build type {build_type}"
          + ("; medians of repetitions" if has_aggregates else ""))
    load = context.get("load_avg") or []
    if load and load[0] > 0.5 * float(context.get("num_cpus", 1) or 1):
        print(f"NOTE: load average {load[0]:.2f} when the run started: other work shared the CPUs, "
              "so wall times are inflated.")
    if build_type.lower() != "release":
        print(f"NOTE: gwb_bench was built as {build_type}, not Release: do not quote these figures.")
    if context.get("library_build_type") == "debug":
        print("NOTE: the system's Google Benchmark library reports a debug build; this affects "
              "only its own bookkeeping, not the code measured.")
    print()
    # Parsing benchmarks report their input size as a `tokens` counter; show it when present.
    show_tokens = any("tokens" in b for b in rows)
    tokens_head, tokens_rule = (" tokens |", " ---: |") if show_tokens else ("", "")
    # Wall time is what a user waits; CPU time shows how much of it was ours when the machine
    # was shared (a loaded 2-core box inflates wall time, not CPU time).
    print(f"| benchmark | iterations | time/iter (ms, wall) | CPU/iter (ms) |{tokens_head} rules/s "
          "| peak RSS (MiB) | Earleyx |")
    print(f"| --- | ---: | ---: | ---: |{tokens_rule} ---: | ---: | --- |")
    for b in rows:
        name = b.get("run_name", b["name"])
        earleyx_key = name
        name = name.replace("/real_time", "")  # every benchmark of ours uses wall time
        earleyx = next((text for regex, text in figures if regex.search(earleyx_key)), "")
        if b.get("error_occurred"):
            blank = " |" if show_tokens else ""
            print(f"| {name} | skipped: {b.get('error_message', '')} | | |{blank} | | {earleyx} |")
            continue
        ms = b["real_time"] * UNIT_TO_MS[b.get("time_unit", "ns")]
        cpu_ms = b["cpu_time"] * UNIT_TO_MS[b.get("time_unit", "ns")]
        rate = b.get("rules/s")
        rate_text = si(rate) if rate is not None else ""
        if "peak_rss_kib" in b:
            rss_text = f"{b['peak_rss_kib'] / 1024:.1f}"
        elif "peak_rss_MiB" in b:
            rss_text = f"{b['peak_rss_MiB']:.1f}*"
        else:
            rss_text = ""
        ms_text, cpu_text = format_ms(ms), format_ms(cpu_ms)
        iterations = str(b["iterations"])
        if b.get("run_type") == "aggregate" and earleyx_key in per_run:
            counts = per_run[earleyx_key]
            iterations = f"{counts[0]} ×{len(counts)}"
        tokens_cell = ""
        if show_tokens:
            tokens_cell = f" {b['tokens']:.0f} |" if "tokens" in b else " |"
        print(f"| {name} | {iterations} | {ms_text} | {cpu_text} |{tokens_cell} {rate_text} | {rss_text} "
              f"| {earleyx} |")
    if any("peak_rss_kib" not in b and "peak_rss_MiB" in b for b in rows):
        print()
        print("\\* in-process getrusage peak: it includes every benchmark run before it in the "
              "same process.")
    print_growth(rows)
    print_speedup(rows)
    print()
    print(f"JSON: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
