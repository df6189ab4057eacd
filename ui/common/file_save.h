// Saving what the workbench exports (CSV tables, images, grammars as text) through core's
// writeFileAtomically (gwb/common/atomic_file.h), so that a failed export never leaves half a
// file; and the JSON conventions of workspace files for numbers that may not be finite.
#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QString>

namespace gwb::ui {

// Writes `bytes` to `path` atomically; false and *error (the reason) when it cannot.
bool saveBytesAtomically(const QString& path, const QByteArray& bytes, QString* error = nullptr);

// JSON has no NaN or infinity: a non-finite value is written as null and read back as NaN.
QJsonValue finiteOrNull(double value);
double numberOrNaN(const QJsonValue& value);

}  // namespace gwb::ui
