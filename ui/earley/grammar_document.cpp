#include "ui/earley/grammar_document.h"

#include <QFile>
#include <QFileInfo>

#include "gwb/common/atomic_file.h"
#include "ui/common/qt_conversions.h"

namespace gwb::ui {

namespace {
// Reading options for the workbench: a grammar whose start symbol is unclear points at the
// status bar's chooser rather than the command line's --root.
gwb::GrammarReadOptions workbenchOptions(gwb::GrammarReadOptions options) {
  options.chooseRootHint =
      GrammarDocument::tr("pick one in the start-symbol box at the right of the status bar")
          .toStdString();
  return options;
}
}  // namespace

std::unique_ptr<GrammarDocument> GrammarDocument::load(
    const QString& path, const gwb::GrammarReadOptions& givenOptions) {
  const gwb::GrammarReadOptions options = workbenchOptions(givenOptions);
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (absolute.startsWith(QLatin1Char(':'))) {
    // Built into the program (a Qt resource): read through Qt.
    QFile resource(absolute);
    if (resource.open(QIODevice::ReadOnly))
      return fromText(absolute, QString::fromUtf8(resource.readAll()), options);
  }
  std::string text;
  std::string error;
  if (!gwb::readWholeFile(toNativePath(absolute), &text, &error)) {
    // Let the reader report the unreadable file as it always does.
    auto document = std::make_unique<GrammarDocument>(
        absolute, gwb::loadGrammarFile(toNativePath(absolute), options));
    document->options_ = options;
    return document;
  }
  return fromText(absolute, QString::fromStdString(text), options);
}

std::unique_ptr<GrammarDocument> GrammarDocument::fromText(const QString& path, const QString& text,
                                                           const gwb::GrammarReadOptions& options) {
  gwb::GrammarReadOptions readOptions = workbenchOptions(options);
  const std::string utf8 = text.toStdString();
  // Fix the format once, so that edits cannot make the reader change its mind.
  if (readOptions.format == gwb::GrammarFormat::Auto)
    readOptions.format = gwb::detectGrammarFormat(utf8, QFileInfo(path).fileName().toStdString());
  auto document = std::make_unique<GrammarDocument>(
      path, gwb::readGrammar(utf8, toNativePath(path), readOptions));
  document->text_ = text;
  document->savedText_ = text;
  document->options_ = readOptions;
  return document;
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

QString GrammarDocument::rootOption() const { return toQString(options_.root); }

void GrammarDocument::setRootOption(const QString& root) {
  const std::string name = root.trimmed().toStdString();
  if (name == options_.root) return;
  options_.root = name;
  reread();
}

void GrammarDocument::setText(const QString& text) {
  if (text == text_) return;
  text_ = text;
  reread();
  // Undoing every edit (or typing the saved text back) leaves nothing to save.
  setModified(text_ != savedText_);
}

void GrammarDocument::reread() {
  gwb::GrammarLoad load = gwb::readGrammar(text_.toStdString(), toNativePath(filePath_), options_);
  grammar_ = std::make_shared<const gwb::Grammar>(std::move(load.grammar));
  diagnostics_ = std::move(load.diagnostics);
  format_ = load.format;
  emit grammarChanged();
}

void GrammarDocument::setModified(bool modified) {
  if (modified == modified_) return;
  modified_ = modified;
  emit modifiedChanged(modified);
}

bool GrammarDocument::save(QString* error) {
  const QByteArray bytes = text_.toUtf8();
  std::string why;
  const bool ok = gwb::writeFileAtomically(
      toNativePath(filePath_),
      [&bytes](std::ostream& out) {
        out.write(bytes.constData(), bytes.size());
        return static_cast<bool>(out);
      },
      &why);
  if (!ok) {
    if (error) *error = toQString(why);
    return false;
  }
  savedText_ = text_;
  setModified(false);
  return true;
}

bool GrammarDocument::saveAs(const QString& path, gwb::GrammarFormat format, QString* error) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  std::string why;
  if (!gwb::saveGrammarFile(*grammar_, toNativePath(absolute), format, &why)) {
    if (error) *error = toQString(why);
    return false;
  }
  std::string text;
  gwb::readWholeFile(toNativePath(absolute), &text);
  text_ = QString::fromStdString(text);
  savedText_ = text_;
  options_.format = format;
  format_ = format;
  if (absolute != filePath_) {
    filePath_ = absolute;
    emit filePathChanged(filePath_);
  }
  reread();
  setModified(false);
  return true;
}

}  // namespace gwb::ui
