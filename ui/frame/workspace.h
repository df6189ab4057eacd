// Workspace: what is open in the workbench and how it is shown, as a JSON file.
//
// A workspace lists the open documents in tab order — each with its kind (grammar, corpus or
// ds-stepper), its path, the start symbol it was opened with, and its views' settings (for a
// grammar: the page shown, the rule filter and selection, the stepper's sentence, options, step,
// filters, number format, breakpoints and selected item, the tree's zoom and collapsed nodes; for
// a corpus: filter and selected rows; for a Dynamic Syntax stepper tab, kind "ds-stepper": its
// path is the DyLan grammar folder and its view the sentence, the strategy ("breadth-first" or
// "best-first"), the beam, the step ("position", edges shown), the selected DAG node and, when
// the user zoomed, the DAG's zoom — see DsStepperView::state; for a CCG tab, kind "ccg": its
// path is the lexicon or model and its view the sentence file ("sentences", a path stored like
// the document's), the sentence, the k-best, beam, composition and word-skipping options, whether
// it was parsed, the replay step, the selected cell and the entry or parse whose derivation is
// shown — see CcgView::state; for the DS learning tab, kind "ds-learn": its path is the
// training file and its view the seed grammar folder ("seed") and test file ("test"), paths
// stored like the document's, the top-N, the tab shown, whether a lexicon had been learned, the
// selected word and test item — see DsLearningView::state; for a FUBL learner tab, kind "fubl":
// its path is the training file (may be empty) and its view the form's files — "training",
// "fixed", "test", "model", stored like the document's path —, passes and seed, the page shown,
// the lexicon filter, and "shownModel", the model file the lexicon browser showed when one was
// saved or opened — see FublView::state) — plus the current tab and the window's layout. Paths
// are written
// relative to the workspace file's folder when they lie below it, so a workspace can travel with
// its grammars; built-in samples keep their ":/" path.
//
//   {"format": "grammar-workbench-workspace", "version": 1, "current": 0,
//    "documents": [{"kind": "grammar", "path": "../samples/pp-attachment.cfg", "root": "",
//                   "view": {"page": "stepper", "stepper": {...}, "tree": {...}}},
//                  {"kind": "ds-stepper", "path": "../shared/data/dylan/2013-english-ttr",
//                   "view": {"sentence": "john likes mary", "strategy": "breadth-first",
//                            "beam": 0, "position": 7, "selected": 5, "zoom": 1.25}}],
//    "window": {"geometry": "<base64>", "state": "<base64>"}}
//
// The research windows (top-level windows, not tabs) are documents too, listed after the tabs,
// each with an empty path and its window's state as the view (plus "geometry", the window's
// own, base64): "induction" (InductionPanel::state: the form and the runs with their records),
// "discourse" (DiscourseView::state: files, rows, recording, window k), "transitions"
// (TransitionView::state: grammar files, values, order, corpus) and "experiments"
// (ExperimentPanel::state: the form and the results). A workspace has at most one of each.
//
// The ds-stepper, ds-learn, ccg, fubl and research kinds came after version 1 without a version
// change: every version-1 file still reads, and only files holding such a document are new (earlier
// programs reject them as an unknown kind). A ds-stepper document may have an empty path (the
// stepper's default folder). Opening one never fails the workspace: a folder that is not a grammar,
// or a sentence that no longer parses as it did, leaves the tab open with the reason in its status
// line. A ccg document may have an empty path (a tab with no lexicon yet); a lexicon that is
// missing or does not read is reported like a missing grammar (the tab is not opened, the
// message names the file, line and column), while a sentence file that is gone, or a saved
// step, cell, entry or parse the new parse does not have, leaves the tab open and says so in
// its status line. A ds-learn document always opens: a training file, seed folder or test file
// that is gone is named in the tab's status line after "Workspace:", and nothing is learned;
// otherwise, if the saved tab had learned a lexicon, it learns again (off the UI thread) and
// then selects the saved word and test item.
// A fubl document always opens: a training, fixed-lexicon, test or model file
// that is gone, or a model that no longer reads, is named in the tab's status line, and the
// rest (the form, the other files, the model when it reads) is restored.
//
// The file format is core's (gwb/common/workspace_file.h): core reads, validates and writes it
// (Qt's JSON layout, byte for byte); this class converts to and from the workbench's Qt types.
// Reading never throws: a malformed file gives nullopt and a message naming the line and column
// when there is one. Saving is atomic.
#pragma once

#include <optional>
#include <vector>

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace gwb::ui {

struct WorkspaceDocument {
  enum class Kind {
    Grammar,
    Corpus,
    DsStepper,
    DsLearn,
    Ccg,
    Fubl,
    Induction,
    Discourse,
    Transitions,
    Experiments
  };
  // A research window (a top-level window of its own, not a tab; no path).
  static bool isResearchWindow(Kind kind) {
    return kind == Kind::Induction || kind == Kind::Discourse || kind == Kind::Transitions ||
           kind == Kind::Experiments;
  }
  Kind kind = Kind::Grammar;
  // Absolute (or ":/..." for a built-in sample); DsStepper: the grammar folder; Ccg: the lexicon;
  // Fubl: the training file.
  QString path;
  QString root;  // start symbol option; empty: the format's default
  QJsonObject view;
  bool operator==(const WorkspaceDocument& o) const {
    return kind == o.kind && path == o.path && root == o.root && view == o.view;
  }
};

struct Workspace {
  static constexpr int kVersion = 1;
  std::vector<WorkspaceDocument> documents;
  int current = -1;
  QByteArray windowGeometry;
  QByteArray windowState;
  bool operator==(const Workspace& o) const {
    return documents == o.documents && current == o.current && windowGeometry == o.windowGeometry &&
           windowState == o.windowState;
  }

  // `baseDirectory`: paths below it are written relative to it (and read back against it).
  QJsonObject toJson(const QString& baseDirectory = QString()) const;
  static std::optional<Workspace> fromJson(const QJsonObject& json,
                                           const QString& baseDirectory = QString(),
                                           QString* error = nullptr);
  bool save(const QString& path, QString* error = nullptr) const;
  static std::optional<Workspace> load(const QString& path, QString* error = nullptr);
};

}  // namespace gwb::ui
