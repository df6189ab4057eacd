#!/usr/bin/env python3
"""Prints the Markdown tables of scripts/reproduce-tables.sh: ours (mean ± sd over seeds) beside
Luong, Frank & Johnson (2013), Tables 2-5, and the learned topic transitions of section 7.1.

    reproduce_tables.py RESULTS_DIR ROW...

Each ROW is a folder of RESULTS_DIR written by reproduce-tables.sh (t2-vb-all, t4-vb-drop-kid.eyes,
...) holding metrics.tsv (the header of `gwb experiment social`, one line per seed, then mean and
sd lines, which are recomputed here), time.txt (wall, user, system seconds, peak KiB) and runs/
with a transitions.csv per seed for discourse models. Python 3 standard library only.
"""

import csv
import math
import os
import sys

# Paper figures. Table 2: acc, topic F1/P/R, word F1/P/R, lexicon F1/P/R, free energy. The
# paper prints the energy 156719 on the MCMC row, which has none; it is the VB model's.
TABLE2 = {
    "vb": [53.14, 60.89, 50.53, 76.59, 25.62, 14.94, 89.91, 16.71, 9.25, 85.71, 156719],
    "discourse": [51.02, 59.40, 48.60, 76.35, 23.86, 13.82, 87.33, 15.05, 8.27, 83.33, 150023],
    "discourse+init": [55.78, 60.91, 52.15, 73.22, 29.75, 17.91, 87.65, 21.11, 11.95, 90.48,
                       149458],
}
# Table 3: acc, topic F1, word F1, lexicon F1.
TABLE3 = {
    "em": [32.08, 39.76, 13.31, 6.09],
    "vb": [39.64, 39.22, 17.40, 12.27],
    "discourse": [40.63, 42.01, 19.31, 12.72],
}
CUES = ["kid.eyes", "kid.hands", "mom.eyes", "mom.hands", "mom.point"]
# Tables 4 (drop one cue) and 5 (only one cue): acc/topic F1/word F1/lexicon F1 per cue.
TABLE4 = {
    "vb": [[49.3, 56.0, 22.6, 15.1], [52.9, 60.4, 26.2, 16.2], [51.5, 59.1, 24.6, 16.3],
           [51.9, 59.2, 25.3, 16.3], [52.9, 60.6, 25.5, 16.6]],
    "discourse+init": [[53.7, 59.2, 27.8, 19.7], [55.2, 60.7, 29.0, 21.4],
                       [54.7, 60.0, 29.0, 21.6], [55.2, 60.1, 29.1, 21.4],
                       [55.6, 60.8, 29.5, 21.7]],
}
TABLE5 = {
    "vb": [[47.2, 53.0, 21.9, 13.9], [43.0, 45.8, 15.4, 12.9], [42.9, 46.5, 14.6, 12.4],
           [41.1, 43.8, 17.1, 12.4], [39.7, 39.7, 17.5, 13.4]],
    "discourse": [[47.8, 55.4, 22.8, 14.2], [44.6, 50.8, 20.3, 13.1], [44.7, 50.1, 21.7, 14.3],
                  [42.7, 46.4, 19.0, 11.6], [38.7, 40.2, 16.6, 11.9]],
}
# Section 7.1 (no cues, "one instance of a learned grammar").
# The reverse pairs (no paper figure) show where the pattern went in our grammars.
TRANSITIONS = [("car", "car", 0.72), ("car", "truck", 0.19), ("pig", "pig", 0.69),
               ("pig", "dog", 0.24), ("truck", "truck", None), ("truck", "car", None),
               ("dog", "dog", None), ("dog", "pig", None)]

# The corpus: 4,763 utterances, 2,550 gold topic labels (the denominator of topic recall). An
# utterance not labelled topical is labelled None, so from P and R: None predictions =
# utterances - R * labels / P. The paper gives P and R only in Table 2.
UTTERANCES = 4763
TOPIC_LABELS = 2550


def none_predictions(precision, recall):
    if not precision or math.isnan(precision) or math.isnan(recall):
        return float("nan")
    return UTTERANCES - recall / 100.0 * TOPIC_LABELS / (precision / 100.0)


T2_COLUMNS = ["acc", "topic_f1", "topic_p", "topic_r", "word_f1", "word_p", "word_r", "lex_f1",
              "lex_p", "lex_r", "energy"]
SHORT_COLUMNS = ["acc", "topic_f1", "word_f1", "lex_f1"]


def gold_path():
    shared = os.environ.get("GWB_SHARED_DIR") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared")
    return os.path.join(shared, "data", "earleyx", "data", "gold.topic.ortho.yld")


def read_topics(path):
    """[(topics, word topics)] of a file in the gold format (".dog ## a puppy.dog")."""
    lines = []
    with open(path, newline="") as f:
        for line in f:
            tokens = line.split()
            split = tokens.index("##") if "##" in tokens else len(tokens)
            words = []
            for w in tokens[split + 1:]:
                dot = w.rfind(".")
                words.append(w[dot + 1:] if 0 < dot < len(w) - 1 else None)
            lines.append(([t[1:] for t in tokens[:split]], words))
    return lines


def topic_from_words_scores(gold, decoded):
    """acc (per utterance and per gold label, GroundedScores::labelAccuracy), topic F1, P, R,
    None predictions of `decoded` once an utterance with no word of its topic is relabelled None
    (labelTopicFromWords, `--topic-from-words`)."""
    labels = sum(len(topics) for topics, _ in gold)
    null_gold = sum(1 for topics, _ in gold if not topics)
    correct = predicted = topical_correct = 0
    for (gold_topics, _), (topics, words) in zip(gold, decoded):
        topic = topics[0] if topics else None
        if topic is not None and topic not in words:
            topic = None
        if topic is None:
            correct += not gold_topics
        else:
            predicted += 1
            if topic in gold_topics:
                correct += 1
                topical_correct += 1
    p = 100.0 * topical_correct / predicted if predicted else 0.0
    r = 100.0 * topical_correct / labels
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"acc": 100.0 * correct / len(gold), "topic_f1": f1, "topic_p": p, "topic_r": r,
            "none_predicted": float(len(gold) - predicted),
            "label_acc": 100.0 * correct / (labels + null_gold)}


def mean_sd(values):
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return float("nan"), float("nan")
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, float("nan")
    return m, math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def number(text):
    try:
        return float(text)
    except ValueError:
        return float("nan")


class Row:
    """One row folder: per-seed metrics, times, transitions."""

    def __init__(self, results, name):
        self.name = name
        self.dir = os.path.join(results, name)
        self.seeds = []  # dicts column -> float
        self.model = self.cues = None
        path = os.path.join(self.dir, "metrics.tsv")
        self.partial = not os.path.exists(path)
        if self.partial:
            path += ".part"  # a row still running: the seeds finished so far
        if os.path.exists(path):
            with open(path, newline="") as f:
                for record in csv.DictReader(f, delimiter="\t"):
                    if not record.get("seed", "").isdigit():
                        continue  # the mean and sd lines
                    self.model, self.cues = record["model"], record["cues"]
                    self.seeds.append({k: number(v) for k, v in record.items()
                                       if k not in ("model", "cues")})
        self.time = None  # wall, user, system seconds of the whole row
        path = os.path.join(self.dir, "time.txt")
        if os.path.exists(path):
            with open(path) as f:
                fields = f.read().split()
            if len(fields) >= 3:
                self.time = [number(x) for x in fields[:3]]

    def ok(self):
        return bool(self.seeds)

    def decoded_files(self):
        found = []
        for folder, _, files in sorted(os.walk(os.path.join(self.dir, "runs"))):
            if "decoded.yld" in files:
                found.append(os.path.join(folder, "decoded.yld"))
        return found

    def stat(self, column):
        if column == "none_predicted":
            return mean_sd([none_predictions(s["topic_p"], s["topic_r"]) for s in self.seeds])
        return mean_sd([s[column] for s in self.seeds])

    def transitions(self):
        """[(seed folder, {(from, to): probability})] from every transitions.csv under runs/."""
        found = []
        for folder, _, files in sorted(os.walk(os.path.join(self.dir, "runs"))):
            if "transitions.csv" not in files:
                continue
            with open(os.path.join(folder, "transitions.csv"), newline="") as f:
                table = list(csv.reader(f))
            header = table[0][1:]
            matrix = {}
            for line in table[1:]:
                for to, value in zip(header, line[1:]):
                    matrix[(line[0], to)] = number(value)
            found.append((os.path.basename(folder), matrix))
        return found


def cell(row, column, paper=None, digits=2):
    m, sd = row.stat(column)
    if math.isnan(m):
        text = "–"
    elif math.isnan(sd):
        text = f"{m:.{digits}f}"
    else:
        text = f"{m:.{digits}f} ± {sd:.{digits}f}"
    if paper is not None and not math.isnan(m):
        gap = m - paper
        flag = "**" if abs(gap) > (2.0 if column != "energy" else 0.01 * paper) else ""
        text += f" [{paper:g}] {flag}{gap:+.{digits}f}{flag}"
    return text


def times(row):
    if not row.time or row.partial:
        return "–"
    wall, user, system = row.time
    n = len(row.seeds)
    return f"{wall / n:.0f} / {(user + system) / n:.0f}"


def iterations(row):
    values = [int(s["iterations"]) for s in row.seeds if not math.isnan(s["iterations"])]
    return f"{min(values)}–{max(values)}" if values else "–"


def table23(rows, table):
    out = []
    if table == 2:
        out.append("Table 2, all cues — ours mean ± sd [paper] difference (bold: more than 2 "
                   "points, energies more than 1 %):\n")
        out.append("| model | seeds | acc | topic F1 | topic P | topic R | None predicted | "
                   "word F1 | lex F1 | free energy | iterations | s per seed (wall / CPU) |")
        out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for row in rows:
            paper = TABLE2.get(row.model)
            none_paper = none_predictions(paper[2], paper[3]) if paper else float("nan")
            none = cell(row, "none_predicted", None, 0)
            if not math.isnan(none_paper):
                none += f" [{none_paper:.0f}]"
            p = (lambda c: paper[T2_COLUMNS.index(c)]) if paper else (lambda c: None)
            energy = cell(row, "energy", p("energy"), 0) if row.model != "em" else "–"
            out.append(f"| {row.model} | {len(row.seeds)} | {cell(row, 'acc', p('acc'))} | "
                       f"{cell(row, 'topic_f1', p('topic_f1'))} | "
                       f"{cell(row, 'topic_p', p('topic_p'))} | "
                       f"{cell(row, 'topic_r', p('topic_r'))} | {none} | "
                       f"{cell(row, 'word_f1', p('word_f1'))} | "
                       f"{cell(row, 'lex_f1', p('lex_f1'))} | {energy} | {iterations(row)} | "
                       f"{times(row)} |")
    else:
        out.append("Table 3, no cues — ours mean ± sd [paper] difference:\n")
        out.append("| model | seeds | acc | topic F1 | topic P | topic R | None predicted | "
                   "word F1 | lex F1 | free energy | iterations | s per seed (wall / CPU) |")
        out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for row in rows:
            paper = TABLE3.get(row.model)
            p = (lambda c: paper[SHORT_COLUMNS.index(c)]) if paper else (lambda c: None)
            energy = cell(row, "energy", None, 0) if row.model != "em" else "–"
            out.append(f"| {row.model} | {len(row.seeds)} | {cell(row, 'acc', p('acc'))} | "
                       f"{cell(row, 'topic_f1', p('topic_f1'))} | {cell(row, 'topic_p')} | "
                       f"{cell(row, 'topic_r')} | {cell(row, 'none_predicted', None, 0)} | "
                       f"{cell(row, 'word_f1', p('word_f1'))} | "
                       f"{cell(row, 'lex_f1', p('lex_f1'))} | {energy} | {iterations(row)} | "
                       f"{times(row)} |")
    return out


def table45(rows, table, gold=None):
    paper_table = TABLE4 if table == 4 else TABLE5
    verb = "drop" if table == 4 else "only"
    scoring = ("scored as the paper scores (acc over labels and topic F1 with "
               "`--topic-from-words`)" if gold else "scored as `gwb` does by default")
    out = [f"Table {table}, {'ablation (all cues but one)' if table == 4 else 'add-one (one cue)'}"
           f", {scoring} — acc / topic F1 / word F1 / lex F1, ours (mean over seeds) then "
           "[paper]; bold: a figure more than 2 points off:\n"]
    out.append("| model | seeds | " + " | ".join(f"{verb} {c}" for c in CUES) + " |")
    out.append("| --- | --- |" + " --- |" * len(CUES))
    by_model = {}
    for row in rows:
        by_model.setdefault(row.model, {})[row.cues.split(":", 1)[1]] = row
    for model, cues in by_model.items():
        cells = []
        seeds = set()
        for k, cue in enumerate(CUES):
            row = cues.get(cue)
            if row is None:
                cells.append("–")
                continue
            seeds.add(len(row.seeds))
            paper = paper_table.get(model, [None] * len(CUES))[k]
            ours = []
            rescored = ([topic_from_words_scores(gold, read_topics(f))
                         for f in row.decoded_files()] if gold else [])
            for j, column in enumerate(SHORT_COLUMNS):
                m, _ = row.stat(column)
                if rescored and column in ("acc", "topic_f1"):
                    key = "label_acc" if column == "acc" else column
                    m, _ = mean_sd([x[key] for x in rescored])
                text = f"{m:.1f}"
                if paper and abs(m - paper[j]) > 2.0:
                    text = f"**{text}**"
                ours.append(text)
            text = "/".join(ours)
            if paper:
                text += " [" + "/".join(f"{v:.1f}" for v in paper) + "]"
            cells.append(text)
        out.append(f"| {model} | {','.join(str(s) for s in sorted(seeds))} | "
                   + " | ".join(cells) + " |")
    return out


def table_topic_from_words(rows, gold):
    out = ["The same runs scored as the paper scores (our reading): an utterance is None unless one "
           "of its words carries its topic (`--topic-from-words`), and accuracy is over gold labels "
           "(a two-topic utterance is two items, `label_acc`); word and lexicon scores do not "
           "change — ours mean ± sd [paper] difference:\n",
           "| table | model | seeds | acc (labels) | topic F1 | topic P | topic R | None predicted "
           "| acc (utterances) |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        scores = [topic_from_words_scores(gold, read_topics(f)) for f in row.decoded_files()]
        if not scores:
            continue
        table = 2 if row.name.startswith("t2-") else 3
        paper = (TABLE2 if table == 2 else TABLE3).get(row.model)
        cells = []
        for column in ("label_acc", "topic_f1", "topic_p", "topic_r", "none_predicted", "acc"):
            m, sd = mean_sd([x[column] for x in scores])
            digits = 0 if column == "none_predicted" else 2
            text = f"{m:.{digits}f}" + ("" if math.isnan(sd) else f" ± {sd:.{digits}f}")
            ref = None
            if paper and table == 2 and column != "acc":
                ref = {"label_acc": paper[0], "topic_f1": paper[1], "topic_p": paper[2],
                       "topic_r": paper[3],
                       "none_predicted": none_predictions(paper[2], paper[3])}[column]
            elif paper and column in ("label_acc", "topic_f1"):
                ref = paper[0 if column == "label_acc" else 1]
            if ref is not None:
                gap = m - ref
                flag = "**" if abs(gap) > 2.0 and column != "none_predicted" else ""
                text += f" [{ref:.{digits}f}]"
                if column != "none_predicted":
                    text += f" {flag}{gap:+.2f}{flag}"
            cells.append(text)
        out.append(f"| {table} | {row.model} | {len(scores)} | " + " | ".join(cells) + " |")
    return out if len(out) > 3 else []


def transitions(rows):
    out = ["Learned transitions P(Discourse.t → Sentence.t Discourse.t'), per seed "
           "[paper, no cues, one grammar]:\n",
           "| row | " + " | ".join(f"{a} → {b}" for a, b, _ in TRANSITIONS) + " |",
           "| --- |" + " --- |" * len(TRANSITIONS)]
    for row in rows:
        found = row.transitions()
        if not found:
            continue
        cells = []
        for a, b, paper in TRANSITIONS:
            values = [m.get((a, b), float("nan")) for _, m in found]
            m, sd = mean_sd(values)
            each = ", ".join(f"{v:.2f}" for v in values)
            cells.append(f"{m:.2f} ({each})" + (f" [{paper}]" if paper is not None else ""))
        out.append(f"| {row.name} | " + " | ".join(cells) + " |")
    return out if len(out) > 3 else []


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    results = argv[1]
    rows = [Row(results, name) for name in argv[2:]]
    missing = [r.name for r in rows if not r.ok()]
    running = [r.name for r in rows if r.ok() and r.partial]
    rows = [r for r in rows if r.ok()]
    sections = []
    for table in (2, 3, 4, 5):
        mine = [r for r in rows if r.name.startswith(f"t{table}-")]
        if not mine:
            continue
        if table in (2, 3):
            sections.append(table23(mine, table))
        else:
            sections.append(table45(mine, table))
            if os.path.exists(gold_path()):
                sections.append(table45(mine, table, read_topics(gold_path())))
    if os.path.exists(gold_path()):
        gold = read_topics(gold_path())
        sections.append(table_topic_from_words(
            [r for r in rows if r.name.startswith(("t2-", "t3-"))], gold))
    sections.append(transitions([r for r in rows if "discourse" in (r.model or "")]))
    print("\n\n".join("\n".join(s) for s in sections if s))
    if running:
        print(f"\n(still running, seeds so far: {', '.join(running)})")
    if missing:
        print(f"\n(no results yet: {', '.join(missing)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
