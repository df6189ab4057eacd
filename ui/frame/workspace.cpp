#include "ui/frame/workspace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include "ui/common/tree_export.h"

namespace gwb::ui {

namespace {
const QString kFormat = QStringLiteral("grammar-workbench-workspace");

QString kindName(WorkspaceDocument::Kind kind) {
  switch (kind) {
    case WorkspaceDocument::Kind::Corpus: return QStringLiteral("corpus");
    case WorkspaceDocument::Kind::DsStepper: return QStringLiteral("ds-stepper");
    case WorkspaceDocument::Kind::Induction: return QStringLiteral("induction");
    case WorkspaceDocument::Kind::Discourse: return QStringLiteral("discourse");
    case WorkspaceDocument::Kind::Transitions: return QStringLiteral("transitions");
    case WorkspaceDocument::Kind::Experiments: return QStringLiteral("experiments");
    case WorkspaceDocument::Kind::Grammar: break;
  }
  return QStringLiteral("grammar");
}

std::optional<WorkspaceDocument::Kind> kindFromName(const QString& name) {
  using Kind = WorkspaceDocument::Kind;
  for (const auto kind : {Kind::Grammar, Kind::Corpus, Kind::DsStepper, Kind::Induction,
                          Kind::Discourse, Kind::Transitions, Kind::Experiments}) {
    if (name == kindName(kind)) return kind;
  }
  return std::nullopt;
}

QString storedPath(const QString& path, const QString& base) {
  if (base.isEmpty() || path.isEmpty() || path.startsWith(QLatin1Char(':'))) return path;
  QString relative = QDir(base).relativeFilePath(path);
  // Only paths inside the base folder, or close beside it, travel well as relative paths.
  if (relative.startsWith(QLatin1String("../../../")) || QDir::isAbsolutePath(relative)) {
    return path;
  }
  return relative;
}

QString resolvedPath(const QString& stored, const QString& base) {
  if (stored.isEmpty() || stored.startsWith(QLatin1Char(':')) || QDir::isAbsolutePath(stored) ||
      base.isEmpty())
    return stored;
  return QDir::cleanPath(QDir(base).absoluteFilePath(stored));
}
}  // namespace

QJsonObject Workspace::toJson(const QString& baseDirectory) const {
  QJsonArray documentsJson;
  for (const WorkspaceDocument& d : documents) {
    QJsonObject entry{{QStringLiteral("kind"), kindName(d.kind)},
                      {QStringLiteral("path"), storedPath(d.path, baseDirectory)},
                      {QStringLiteral("view"), d.view}};
    if (!d.root.isEmpty()) entry.insert(QStringLiteral("root"), d.root);
    documentsJson.append(entry);
  }
  QJsonObject json{{QStringLiteral("format"), kFormat},
                   {QStringLiteral("version"), kVersion},
                   {QStringLiteral("current"), current},
                   {QStringLiteral("documents"), documentsJson}};
  if (!windowGeometry.isEmpty() || !windowState.isEmpty()) {
    json.insert(
        QStringLiteral("window"),
        QJsonObject{{QStringLiteral("geometry"), QString::fromLatin1(windowGeometry.toBase64())},
                    {QStringLiteral("state"), QString::fromLatin1(windowState.toBase64())}});
  }
  return json;
}

std::optional<Workspace> Workspace::fromJson(const QJsonObject& json, const QString& baseDirectory,
                                             QString* error) {
  const auto fail = [error](const QString& message) -> std::optional<Workspace> {
    if (error) *error = message;
    return std::nullopt;
  };
  if (json.value(QStringLiteral("format")).toString() != kFormat) {
    return fail(
        QObject::tr(R"(not a Grammar Workbench workspace (no "format": "%1"))").arg(kFormat));
  }
  const int version = json.value(QStringLiteral("version")).toInt(0);
  if (version < 1 || version > kVersion) {
    return fail(QObject::tr("workspace version %1 is not supported (this program reads %2)")
                    .arg(version)
                    .arg(kVersion));
  }
  Workspace workspace;
  const QJsonArray documents = json.value(QStringLiteral("documents")).toArray();
  for (qsizetype i = 0; i < documents.size(); ++i) {
    const QJsonObject entry = documents[i].toObject();
    const QString kind = entry.value(QStringLiteral("kind")).toString();
    const QString path = entry.value(QStringLiteral("path")).toString();
    const std::optional<WorkspaceDocument::Kind> known = kindFromName(kind);
    if (!known)
      return fail(QObject::tr("document %1 has an unknown kind \"%2\"").arg(i + 1).arg(kind));
    // A DS stepper with no folder uses its default one, research windows have none; every
    // file needs a path.
    if (path.isEmpty() && *known != WorkspaceDocument::Kind::DsStepper &&
        !WorkspaceDocument::isResearchWindow(*known))
      return fail(QObject::tr("document %1 has no path").arg(i + 1));
    WorkspaceDocument d;
    d.kind = *known;
    d.path = resolvedPath(path, baseDirectory);
    d.root = entry.value(QStringLiteral("root")).toString();
    d.view = entry.value(QStringLiteral("view")).toObject();
    workspace.documents.push_back(std::move(d));
  }
  workspace.current = json.value(QStringLiteral("current")).toInt(-1);
  if (workspace.current >= static_cast<int>(workspace.documents.size())) workspace.current = -1;
  const QJsonObject window = json.value(QStringLiteral("window")).toObject();
  workspace.windowGeometry =
      QByteArray::fromBase64(window.value(QStringLiteral("geometry")).toString().toLatin1());
  workspace.windowState =
      QByteArray::fromBase64(window.value(QStringLiteral("state")).toString().toLatin1());
  return workspace;
}

bool Workspace::save(const QString& path, QString* error) const {
  const QString base = QFileInfo(path).absolutePath();
  const QByteArray bytes = QJsonDocument(toJson(base)).toJson(QJsonDocument::Indented);
  return saveBytesAtomically(path, bytes, error);
}

std::optional<Workspace> Workspace::load(const QString& path, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    if (error) *error = file.errorString();
    return std::nullopt;
  }
  QJsonParseError parseError{};
  const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
  if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
    if (error != nullptr) {
      *error = QObject::tr("not valid JSON at offset %1: %2")
                   .arg(parseError.offset)
                   .arg(parseError.errorString());
    }
    return std::nullopt;
  }
  return fromJson(document.object(), QFileInfo(path).absolutePath(), error);
}

}  // namespace gwb::ui
