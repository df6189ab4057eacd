#include "ui/frame/workspace.h"

#include <cstdint>
#include <limits>
#include <string>

#include <QCborValue>
#include <QFile>
#include <QJsonArray>

#include "gwb/common/diagnostic.h"
#include "gwb/common/workspace_file.h"
#include "ui/common/qt_conversions.h"

// The file format lives in core (gwb/common/workspace_file.h): this file only converts between
// core's plain values and the workbench's Qt ones.
namespace gwb::ui {

namespace {
using Json = nlohmann::json;

// Depth is bounded: core bounds what it reads, and views are built by code a few levels deep.
QJsonValue toQt(const Json& value) {
  switch (value.type()) {
    case Json::value_t::object: {
      QJsonObject object;
      for (const auto& item : value.items())
        object.insert(QString::fromStdString(item.key()), toQt(item.value()));
      return object;
    }
    case Json::value_t::array: {
      QJsonArray array;
      for (const Json& element : value) array.append(toQt(element));
      return array;
    }
    case Json::value_t::string: return QString::fromStdString(value.get_ref<const std::string&>());
    case Json::value_t::boolean: return value.get<bool>();
    case Json::value_t::number_integer: return static_cast<qint64>(value.get<std::int64_t>());
    case Json::value_t::number_unsigned: {
      const auto u = value.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(std::numeric_limits<qint64>::max()))
        return static_cast<qint64>(u);
      return static_cast<double>(u);  // as Qt reads such numbers
    }
    case Json::value_t::number_float: return value.get<double>();
    case Json::value_t::null:
    case Json::value_t::binary:
    case Json::value_t::discarded: break;
  }
  return QJsonValue(QJsonValue::Null);
}

Json fromQt(const QJsonValue& value) {
  switch (value.type()) {
    case QJsonValue::Object: {
      Json object = Json::object();
      const QJsonObject qt = value.toObject();
      for (auto it = qt.begin(); it != qt.end(); ++it)
        object[it.key().toStdString()] = fromQt(it.value());
      return object;
    }
    case QJsonValue::Array: {
      Json array = Json::array();
      for (const QJsonValue& element : value.toArray()) array.push_back(fromQt(element));
      return array;
    }
    case QJsonValue::String: return value.toString().toStdString();
    case QJsonValue::Bool: return value.toBool();
    case QJsonValue::Double: {
      // QJsonValue keeps integers apart from doubles inside; so does the file.
      const QCborValue number = QCborValue::fromJsonValue(value);
      if (number.isInteger()) return static_cast<std::int64_t>(number.toInteger());
      return value.toDouble();
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined: break;
  }
  return nullptr;
}

WorkspaceDocument::Kind toUi(gwb::WorkspaceDocumentKind kind) {
  using Kind = WorkspaceDocument::Kind;
  switch (kind) {
    case gwb::WorkspaceDocumentKind::Corpus: return Kind::Corpus;
    case gwb::WorkspaceDocumentKind::DsStepper: return Kind::DsStepper;
    case gwb::WorkspaceDocumentKind::DsLearn: return Kind::DsLearn;
    case gwb::WorkspaceDocumentKind::Ccg: return Kind::Ccg;
    case gwb::WorkspaceDocumentKind::Fubl: return Kind::Fubl;
    case gwb::WorkspaceDocumentKind::Induction: return Kind::Induction;
    case gwb::WorkspaceDocumentKind::Discourse: return Kind::Discourse;
    case gwb::WorkspaceDocumentKind::Transitions: return Kind::Transitions;
    case gwb::WorkspaceDocumentKind::Experiments: return Kind::Experiments;
    case gwb::WorkspaceDocumentKind::Grammar: break;
  }
  return Kind::Grammar;
}

gwb::WorkspaceDocumentKind toCore(WorkspaceDocument::Kind kind) {
  using Kind = WorkspaceDocument::Kind;
  switch (kind) {
    case Kind::Corpus: return gwb::WorkspaceDocumentKind::Corpus;
    case Kind::DsStepper: return gwb::WorkspaceDocumentKind::DsStepper;
    case Kind::DsLearn: return gwb::WorkspaceDocumentKind::DsLearn;
    case Kind::Ccg: return gwb::WorkspaceDocumentKind::Ccg;
    case Kind::Fubl: return gwb::WorkspaceDocumentKind::Fubl;
    case Kind::Induction: return gwb::WorkspaceDocumentKind::Induction;
    case Kind::Discourse: return gwb::WorkspaceDocumentKind::Discourse;
    case Kind::Transitions: return gwb::WorkspaceDocumentKind::Transitions;
    case Kind::Experiments: return gwb::WorkspaceDocumentKind::Experiments;
    case Kind::Grammar: break;
  }
  return gwb::WorkspaceDocumentKind::Grammar;
}

gwb::WorkspaceFile toCore(const Workspace& workspace) {
  gwb::WorkspaceFile file;
  for (const WorkspaceDocument& d : workspace.documents) {
    file.documents.push_back(
        {toCore(d.kind), d.path.toStdString(), d.root.toStdString(), fromQt(QJsonValue(d.view))});
  }
  file.current = workspace.current;
  file.windowGeometry = workspace.windowGeometry.toStdString();
  file.windowState = workspace.windowState.toStdString();
  return file;
}

Workspace toUi(const gwb::WorkspaceFile& file) {
  Workspace workspace;
  for (const gwb::WorkspaceFileDocument& d : file.documents) {
    workspace.documents.push_back({toUi(d.kind), QString::fromStdString(d.path),
                                   QString::fromStdString(d.root), toQt(d.view).toObject()});
  }
  workspace.current = file.current;
  workspace.windowGeometry = QByteArray::fromStdString(file.windowGeometry);
  workspace.windowState = QByteArray::fromStdString(file.windowState);
  return workspace;
}

// The errors, one a line, with their line and column (the caller names the file).
std::optional<Workspace> result(const gwb::WorkspaceFileLoad& load, QString* error) {
  if (load.ok()) return toUi(load.workspace);
  if (error != nullptr) {
    QStringList lines;
    for (const gwb::Diagnostic& d : load.diagnostics) {
      if (d.severity != gwb::Severity::Error) continue;
      QString line = toQString(d.message);
      if (d.line > 0) {
        line = QObject::tr("line %1, column %2: %3").arg(d.line).arg(d.column).arg(line);
      }
      lines << line;
    }
    *error = lines.join(QLatin1Char('\n'));
  }
  return std::nullopt;
}
}  // namespace

QJsonObject Workspace::toJson(const QString& baseDirectory) const {
  return toQt(gwb::workspaceToJson(toCore(*this), baseDirectory.toStdString())).toObject();
}

std::optional<Workspace> Workspace::fromJson(const QJsonObject& json, const QString& baseDirectory,
                                             QString* error) {
  return result(gwb::workspaceFromJson(fromQt(QJsonValue(json)), baseDirectory.toStdString(), {}),
                error);
}

bool Workspace::save(const QString& path, QString* error) const {
  std::string why;
  const bool saved = gwb::saveWorkspaceFile(toCore(*this), toNativePath(path), &why);
  if (!saved && error != nullptr) *error = toQString(why);
  return saved;
}

std::optional<Workspace> Workspace::load(const QString& path, QString* error) {
  return result(gwb::loadWorkspaceFile(toNativePath(path)), error);
}

}  // namespace gwb::ui
