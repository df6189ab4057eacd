// CcgProofView: one CCG derivation drawn in the standard proof layout
// (gwb/ccg/derivation_proof.h): the words on top; under each word or lexeme a line with its
// lexical category and logical form; under two adjacent constituents a line labelled with the
// combinator (>, <, >B, <B) and, under it, the category and the logical form it builds. Columns
// are as wide as the widest text they hold, so nothing overlaps.
//
// The drawing is computed once per derivation (lineGeometry(): one entry per ProofLayout line,
// in the layout's order) and painted by paintProof() — on screen, and into the exports: PNG, SVG
// and PDF images of the proof and its LaTeX tabular (proofToLatex). Exports are written
// atomically; the format follows the suffix (.png, .svg, .pdf, .tex). On screen, "fit" (the
// default) scales a proof larger than the view down to fit it; off, the proof is drawn at full
// size and the surrounding scroll area scrolls. Geometry is always in full-size coordinates.
#pragma once

#include <vector>

#include <QFont>
#include <QLineF>
#include <QRectF>
#include <QString>
#include <QWidget>

#include "gwb/ccg/derivation_proof.h"

class QPainter;

namespace gwb::ui {

class CcgProofView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(CcgProofView)

 public:
  struct LineGeometry {
    QLineF rule;       // the horizontal line
    QString label;     // ">", "<", ">B", "<B"; empty for a lexical line
    QRectF labelRect;  // right of the rule
    QRectF categoryRect;
    QRectF formRect;
  };

  explicit CcgProofView(QWidget* parent = nullptr);
  ~CcgProofView() override = default;

  // `title` is a comment for exports (the sentence, the rank and score).
  void setProof(gwb::ccg::ProofLayout layout, const QString& title = QString());
  void clear();
  bool hasProof() const { return !layout_.lines.empty(); }
  const gwb::ccg::ProofLayout& layout() const { return layout_; }
  const std::vector<LineGeometry>& lineGeometry() const { return lines_; }
  // The words' rectangles, in column order.
  const std::vector<QRectF>& wordRects() const { return wordRects_; }
  QSizeF proofSize() const { return size_; }
  void setFit(bool fit);
  bool fit() const { return fit_; }
  double displayScale() const;  // 1 at full size, less when fitted

  void paintProof(QPainter& painter) const;
  QImage renderImage(double scale = 2.0) const;
  QByteArray renderSvg() const;
  QByteArray renderPdf() const;
  QString latexText() const;
  bool exportFile(const QString& path, QString* error = nullptr) const;

  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  void computeGeometry();

  gwb::ccg::ProofLayout layout_;
  QString title_;
  QFont wordFont_;
  QFont categoryFont_;
  QFont formFont_;
  QFont labelFont_;
  std::vector<LineGeometry> lines_;
  std::vector<QRectF> wordRects_;
  QSizeF size_;
  bool fit_ = true;
};

}  // namespace gwb::ui
