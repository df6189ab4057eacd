#include "ui/grammar_document.h"

#include <QFileInfo>

#include "ui/qt_conversions.h"

namespace gwb::ui {

std::unique_ptr<GrammarDocument> GrammarDocument::load(const QString& path,
                                                       const gwb::GrammarReadOptions& options) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  return std::make_unique<GrammarDocument>(absolute,
                                           gwb::loadGrammarFile(toNativePath(absolute), options));
}

GrammarDocument::GrammarDocument(QString filePath, gwb::GrammarLoad load, QObject* parent)
    : QObject(parent),
      filePath_(std::move(filePath)),
      grammar_(std::make_shared<const gwb::Grammar>(std::move(load.grammar))),
      diagnostics_(std::move(load.diagnostics)),
      format_(load.format) {}

QString GrammarDocument::displayName() const { return QFileInfo(filePath_).fileName(); }

QString GrammarDocument::startSymbolName() const {
  const auto start = grammar_->start();
  return start ? toQString(grammar_->symbols().name(*start)) : QString();
}

bool GrammarDocument::saveAs(const QString& path, gwb::GrammarFormat format, QString* error) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  std::string why;
  if (!gwb::saveGrammarFile(*grammar_, toNativePath(absolute), format, &why)) {
    if (error) *error = toQString(why);
    return false;
  }
  format_ = format;
  if (absolute != filePath_) {
    filePath_ = absolute;
    emit filePathChanged(filePath_);
  }
  return true;
}

}  // namespace gwb::ui
