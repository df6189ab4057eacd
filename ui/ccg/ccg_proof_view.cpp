#include "ui/ccg/ccg_proof_view.h"

#include <algorithm>
#include <numeric>

#include <QBuffer>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include "ui/common/qt_conversions.h"
#include "ui/common/tree_export.h"

namespace gwb::ui {

namespace {

constexpr double kMargin = 16.0;
constexpr double kColumnPadding = 18.0;
constexpr double kRuleGap = 6.0;  // above a rule
constexpr double kRowGap = 8.0;   // below a logical form

QFont styled(QFont font, double scale, bool italic, bool bold) {
  font.setPointSizeF(font.pointSizeF() * scale);
  font.setItalic(italic);
  font.setBold(bold);
  return font;
}

}  // namespace

CcgProofView::CcgProofView(QWidget* parent)
    : QWidget(parent),
      wordFont_(styled(font(), 1.1, true, false)),
      categoryFont_(styled(font(), 1.0, false, true)),
      formFont_(styled(QFontDatabase::systemFont(QFontDatabase::FixedFont), 1.0, false, false)),
      labelFont_(styled(font(), 1.0, false, true)) {
  setObjectName(QStringLiteral("ccgProofView"));
  formFont_.setPointSizeF(std::max(7.0, font().pointSizeF() * 0.85));
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
}

void CcgProofView::setProof(gwb::ccg::ProofLayout layout, const QString& title) {
  layout_ = std::move(layout);
  title_ = title;
  computeGeometry();
  setMinimumSize(fit_ ? QSize(0, 0) : size_.toSize());
  updateGeometry();
  update();
}

void CcgProofView::setFit(bool fit) {
  fit_ = fit;
  setMinimumSize(fit_ ? QSize(0, 0) : size_.toSize());
  updateGeometry();
  update();
}

double CcgProofView::displayScale() const {
  if (!fit_ || size_.isEmpty()) return 1.0;
  return std::min({1.0, width() / size_.width(), height() / size_.height()});
}

void CcgProofView::clear() { setProof({}, QString()); }

void CcgProofView::computeGeometry() {
  lines_.clear();
  wordRects_.clear();
  const int columns = static_cast<int>(layout_.words.size());
  if (columns == 0) {
    size_ = QSizeF(0, 0);
    return;
  }
  const QFontMetricsF wordMetrics(wordFont_);
  const QFontMetricsF categoryMetrics(categoryFont_);
  const QFontMetricsF formMetrics(formFont_);
  const QFontMetricsF labelMetrics(labelFont_);
  std::vector<double> widths(static_cast<std::size_t>(columns));
  for (int w = 0; w < columns; ++w) {
    widths[w] = wordMetrics.horizontalAdvance(toQString(layout_.words[w])) + kColumnPadding;
  }
  // Widen columns so each line's texts fit its columns, narrow spans first.
  std::vector<std::size_t> order(layout_.lines.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) {
    return layout_.lines[a].end - layout_.lines[a].begin <
           layout_.lines[b].end - layout_.lines[b].begin;
  });
  const auto labelOf = [](const gwb::ccg::ProofLine& line) {
    return line.combinator == gwb::ccg::Combinator::Lexical
               ? QString()
               : QString::fromLatin1(gwb::ccg::combinatorSymbol(line.combinator));
  };
  for (std::size_t i : order) {
    const gwb::ccg::ProofLine& line = layout_.lines[i];
    const double need = std::max({categoryMetrics.horizontalAdvance(toQString(line.category)),
                                  formMetrics.horizontalAdvance(toQString(line.logicalForm)),
                                  labelMetrics.horizontalAdvance(labelOf(line)) * 2 + 20}) +
                        kColumnPadding;
    double have = 0;
    for (int w = line.begin; w < line.end; ++w) have += widths[w];
    if (need > have) {
      const double extra = (need - have) / (line.end - line.begin);
      for (int w = line.begin; w < line.end; ++w) widths[w] += extra;
    }
  }
  std::vector<double> x(static_cast<std::size_t>(columns) + 1, kMargin);
  for (int w = 0; w < columns; ++w) x[w + 1] = x[w] + widths[w];
  const double wordHeight = wordMetrics.height() + 4;
  for (int w = 0; w < columns; ++w) {
    wordRects_.emplace_back(x[w], kMargin, widths[w], wordHeight);
  }
  const double rowHeight = kRuleGap + categoryMetrics.height() + formMetrics.height() + kRowGap + 2;
  for (const gwb::ccg::ProofLine& line : layout_.lines) {
    LineGeometry g;
    const double top = kMargin + wordHeight + line.row * rowHeight;
    const double ruleY = top + kRuleGap;
    const double left = x[line.begin] + 4;
    const double right = x[line.end] - 4;
    g.label = labelOf(line);
    const double labelWidth = g.label.isEmpty() ? 0 : labelMetrics.horizontalAdvance(g.label) + 4;
    g.rule = QLineF(left, ruleY, right - labelWidth, ruleY);
    g.labelRect = QRectF(right - labelWidth + 2, ruleY - labelMetrics.height() / 2, labelWidth,
                         labelMetrics.height());
    g.categoryRect = QRectF(left, ruleY + 2, right - left, categoryMetrics.height());
    g.formRect = QRectF(left - kColumnPadding / 2 + 4, g.categoryRect.bottom(),
                        right - left + kColumnPadding - 8, formMetrics.height());
    lines_.push_back(g);
  }
  size_ = QSizeF(x.back() + kMargin, kMargin + wordHeight + layout_.rows * rowHeight + kMargin);
}

void CcgProofView::paintProof(QPainter& painter) const {
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  const QColor ink(32, 32, 32);
  const QColor formInk(46, 90, 140);
  painter.setFont(wordFont_);
  painter.setPen(ink);
  for (std::size_t w = 0; w < wordRects_.size(); ++w) {
    painter.drawText(wordRects_[w], Qt::AlignCenter, toQString(layout_.words[w]));
  }
  for (std::size_t i = 0; i < lines_.size(); ++i) {
    const LineGeometry& g = lines_[i];
    const gwb::ccg::ProofLine& line = layout_.lines[i];
    painter.setPen(QPen(ink, 1.2));
    painter.drawLine(g.rule);
    if (!g.label.isEmpty()) {
      painter.setFont(labelFont_);
      painter.drawText(g.labelRect, Qt::AlignLeft | Qt::AlignVCenter, g.label);
    }
    painter.setFont(categoryFont_);
    painter.drawText(g.categoryRect, Qt::AlignCenter, toQString(line.category));
    painter.setFont(formFont_);
    painter.setPen(formInk);
    painter.drawText(g.formRect, Qt::AlignCenter, toQString(line.logicalForm));
  }
}

void CcgProofView::paintEvent(QPaintEvent* /*event*/) {
  QPainter painter(this);
  if (!hasProof()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter,
                     tr("Pick a derivation or a chart entry to see its proof."));
    return;
  }
  const double scale = displayScale();
  // Centred horizontally when there is room to spare.
  painter.translate(std::max(0.0, (width() - size_.width() * scale) / 2), 0);
  painter.scale(scale, scale);
  paintProof(painter);
}

QSize CcgProofView::sizeHint() const { return hasProof() ? size_.toSize() : QSize(400, 120); }

QImage CcgProofView::renderImage(double scale) const {
  QImage image((size_ * scale).toSize().expandedTo(QSize(1, 1)),
               QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.scale(scale, scale);
  paintProof(painter);
  return image;
}

QByteArray CcgProofView::renderSvg() const {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  generator.setSize(size_.toSize());
  generator.setViewBox(QRectF(QPointF(0, 0), size_));
  generator.setTitle(tr("CCG derivation"));
  generator.setDescription(title_);
  QPainter painter(&generator);
  paintProof(painter);
  painter.end();
  return bytes;
}

QByteArray CcgProofView::renderPdf() const {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QPdfWriter writer(&buffer);
  writer.setTitle(tr("CCG derivation"));
  writer.setCreator(QStringLiteral("Grammar Workbench"));
  writer.setResolution(72);
  writer.setPageSize(QPageSize(size_.expandedTo(QSizeF(1, 1)), QPageSize::Point));
  writer.setPageMargins(QMarginsF(0, 0, 0, 0));
  QPainter painter(&writer);
  paintProof(painter);
  painter.end();
  return bytes;
}

QString CcgProofView::latexText() const {
  return toQString(gwb::ccg::proofToLatex(layout_, title_.toStdString()));
}

bool CcgProofView::exportFile(const QString& path, QString* error) const {
  if (!hasProof()) {
    if (error) *error = tr("There is no derivation to export.");
    return false;
  }
  const QString suffix = QFileInfo(path).suffix().toLower();
  QByteArray bytes;
  if (suffix == QLatin1String("png")) {
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!renderImage().save(&buffer, "PNG")) {
      if (error) *error = tr("Could not encode the PNG image.");
      return false;
    }
  } else if (suffix == QLatin1String("svg")) {
    bytes = renderSvg();
  } else if (suffix == QLatin1String("pdf")) {
    bytes = renderPdf();
  } else if (suffix == QLatin1String("tex")) {
    bytes = latexText().toUtf8();
  } else {
    if (error) *error = tr("Unknown file type: use .png, .svg, .pdf or .tex (LaTeX tabular).");
    return false;
  }
  return saveBytesAtomically(path, bytes, error);
}

}  // namespace gwb::ui
