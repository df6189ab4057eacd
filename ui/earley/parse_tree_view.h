// ParseTreeView: the Viterbi parse of the stepper's sentence as a drawn tree.
//
// The view also offers the runners-up, for any sentence that parses: a list of the n best
// parses (gwb::kBestParses, read lazily off the session's chart), each with its probability
// and its share of the sentence's.
//
// The tree is laid out by layoutTree (a tidy tree: no overlapping boxes, parents centred over
// their children) and drawn in a QGraphicsScene: a box per nonterminal, the words in italics
// below their preterminals. Click a nonterminal to collapse its subtree into a triangle (click
// again to open it); drag to pan, Ctrl+wheel or the buttons to zoom, "Fit" to see it all.
// Linked to the chart: Ctrl+click a nonterminal, or right-click it and choose "Show in chart",
// to emit showInChartRequested(node) (GrammarView then selects the completed chart item that
// built it). A plain click still only collapses. setHighlightedNode() marks one node's box
// (GrammarView marks the node built by the chart item selected in the stepper); the mark
// survives collapsing (a node hidden in a collapsed subtree is simply not drawn) and is
// cleared whenever another tree is shown.
// Exports: PNG, SVG and PDF of the drawing (what is collapsed stays collapsed), Penn Treebank
// brackets and a LaTeX `forest` environment of the whole tree — every file written atomically.
// state()/restoreState() keep zoom and collapsed nodes for the workspace.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QImage>
#include <QJsonObject>
#include <QWidget>

#include "gwb/earley/kbest.h"
#include "gwb/earley/parse_tree.h"
#include "ui/common/tree_layout.h"

class QGraphicsScene;
class QGraphicsView;
class QComboBox;
class QLabel;
class QToolButton;

namespace gwb::ui {

class ParseSession;

class ParseTreeView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(ParseTreeView)

 public:
  enum class ExportFormat { Png, Svg, Pdf, Ptb, Forest };

  explicit ParseTreeView(QWidget* parent = nullptr);
  ~ParseTreeView() override;

  // Shows the session's Viterbi tree (or says why there is none).
  void setSession(const std::shared_ptr<const ParseSession>& session);
  // Shows `tree` with a caption above it.
  void setTree(const gwb::ParseTree& tree, const QString& caption);
  const gwb::ParseTree& tree() const { return tree_; }
  const TreeLayout& layout() const { return layout_; }
  QGraphicsScene* scene() const { return scene_; }
  QGraphicsView* view() const { return view_; }
  QString caption() const;
  // The ranked parses on offer (just the Viterbi tree for long inputs) and the one shown.
  const std::vector<RankedParse>& parses() const { return parses_; }
  int currentParse() const { return currentParse_; }
  void showParse(int index);

  bool isCollapsed(int node) const;
  void setCollapsed(int node, bool collapsed);
  void toggleCollapsed(int node);
  void expandAll();
  // The node drawn at a scene position (-1: none).
  int nodeAt(const QPointF& scenePosition) const;
  // A node's box in scene coordinates.
  QRectF nodeRect(int node) const;
  // The node whose box is highlighted (-1: none); setting it scrolls the box into view.
  int highlightedNode() const { return highlighted_; }
  void setHighlightedNode(int node);

  double zoom() const;
  void setZoom(double zoom);
  void zoomToFit();

  // Renders or writes the tree; the format of exportFile comes from the file's extension
  // (.png, .svg, .pdf, .ptb/.mrg/.txt, .tex).
  QImage renderImage(double scale = 2.0) const;
  QByteArray renderSvg() const;
  QByteArray renderPdf() const;
  QString ptbText() const;
  QString forestText() const;
  bool exportFile(const QString& path, QString* error = nullptr) const;
  static std::optional<ExportFormat> formatForPath(const QString& path);

  QJsonObject state() const;
  void restoreState(const QJsonObject& state);

 signals:
  void stateChanged();
  // The user asked to see `node`'s chart item (Ctrl+click or the context menu).
  void showInChartRequested(int node);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  void rebuildScene();
  void applyAutoZoom();
  void showExportDialog();
  void copyBrackets();
  void showNodeMenu(int node, const QPoint& globalPosition);

  gwb::ParseTree tree_;
  std::vector<bool> collapsed_;
  int highlighted_ = -1;
  TreeLayout layout_;
  QString caption_;
  QString sentence_;
  QGraphicsScene* scene_ = nullptr;
  QGraphicsView* view_ = nullptr;
  QLabel* captionLabel_ = nullptr;
  QToolButton* exportButton_ = nullptr;
  QPoint pressedAt_;
  QComboBox* parseBox_ = nullptr;
  std::vector<RankedParse> parses_;
  int currentParse_ = 0;
  double logSentence_ = 0.0;
  bool autoZoom_ = true;  // until the user zooms, the zoom follows the view's width
};

}  // namespace gwb::ui
