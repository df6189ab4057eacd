// DsDagModel: a Dynamic Syntax parse DAG (core's ParseDag) revealed step by step, as the DS
// stepper shows it, and listed as a table of steps (one row per revealed edge).
//
// A step is one edge of the DAG, in the order the parser created it. Showing k steps shows the
// first k edges and the nodes they reach: the axiom plus every edge's target. The parser adds
// each new node just before its first edge, so the visible nodes are always the first ids in
// order. Breadth-first, edges come word by word: the optional computational actions explored
// at a position, then the lexical actions of the next word; so "the end of word w" is just
// after the last lexical edge of word w, and the word boundaries are {0, end of each word
// reached, all edges}. Best-first DAGs step the same way (their boundaries are sorted).
//
// The success path is the result's path when the parse succeeded (otherwise, the path to the
// final partial tree, marked as such). dump() is a canonical text of what is visible, and
// visibleDot() the visible part in core's DOT format (ParseDag::toDot) with the visible part of
// the path highlighted: for all steps it equals the core's own DOT of the whole DAG.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "gwb/ds/ds_parser.h"

namespace gwb::ui {

class DsDagModel : public QAbstractTableModel {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(DsDagModel)

 public:
  enum Column {
    StepColumn,
    FromColumn,
    ToColumn,
    ActionColumn,
    WordColumn,
    ClosureColumn,
    ColumnCount
  };
  enum Role { EdgeIdRole = Qt::UserRole + 1, OnPathRole };

  explicit DsDagModel(QObject* parent = nullptr);
  ~DsDagModel() override;

  // A new parse (shown with no steps); null clears the model.
  void setResult(std::shared_ptr<const gwb::ds::DsParseResult> result,
                 std::vector<std::string> words);
  const gwb::ds::DsParseResult* result() const { return result_.get(); }
  const std::vector<std::string>& words() const { return words_; }
  bool succeeded() const;

  int edgeCount() const;
  int nodeCount() const;
  int visibleEdges() const { return visible_; }
  int visibleNodes() const;  // nodes 0 .. visibleNodes()-1 are shown
  bool isNodeVisible(int id) const { return id >= 0 && id < visibleNodes(); }
  // The words whose lexical edges are all shown, and the word boundaries (see above).
  int wordsShown() const;
  std::vector<int> wordBoundaries() const;
  // The node reached by the last visible edge (the axiom with no steps); -1 without a result.
  int latestNode() const;
  // Whether edge `id` is on the result's path (success path, or the path to the final tree).
  bool isOnPath(int edgeId) const;
  bool isNodeOnPath(int nodeId) const;

  // Stepping; each returns false (and changes nothing) when it cannot move.
  bool setVisibleEdges(int count);
  bool stepForward() { return setVisibleEdges(visible_ + 1); }
  bool stepBack() { return setVisibleEdges(visible_ - 1); }
  bool nextWord();
  bool previousWord();
  bool toStart() { return setVisibleEdges(0); }
  bool toEnd() { return setVisibleEdges(edgeCount()); }

  // "nodes 3/23, edges 2/22" then `n<id> w<words>[ complete]` and the tree's toString lines
  // (indented by 4) for each visible node, then `e<id> n<from> -> n<to> <action>[ +closure,..]
  // [ word <k>][ path]` for each visible edge.
  std::string dump() const;
  std::string visibleDot() const;

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 signals:
  void resultChanged();
  void visibleChanged(int visibleEdges);

 private:
  std::shared_ptr<const gwb::ds::DsParseResult> result_;
  std::vector<std::string> words_;
  std::vector<bool> onPath_;  // by edge id
  std::vector<bool> nodeOnPath_;
  std::vector<int> boundaries_;
  std::vector<int> lastLexical_;  // by word: the id of its last lexical edge (-1: none)
  int visible_ = 0;
};

}  // namespace gwb::ui
