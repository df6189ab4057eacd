// Conversions between core's std::string (UTF-8 text, native file paths) and Qt's QString.
//
// Core stores names and messages as UTF-8 and takes file paths as native 8-bit strings; the UI
// works in QString. Converting in one place keeps the encodings straight.
#pragma once

#include <string>

#include <QFile>
#include <QString>
#include <QStringList>

#include "gwb/common/diagnostic.h"

namespace gwb::ui {

inline QString toQString(const std::string& utf8) { return QString::fromStdString(utf8); }
inline QString toQString(const char* utf8) { return QString::fromUtf8(utf8); }

// A path as core's file functions expect it (the platform's file-name encoding).
inline std::string toNativePath(const QString& path) {
  return QFile::encodeName(path).toStdString();
}

// The errors of `diagnostics` as core prints them ("file:line:col: error: ..."), one a line.
inline QString errorLines(const gwb::Diagnostics& diagnostics) {
  QStringList lines;
  for (const gwb::Diagnostic& d : diagnostics)
    if (d.severity == gwb::Severity::Error) lines << toQString(gwb::toString(d));
  return lines.join(QLatin1Char('\n'));
}

}  // namespace gwb::ui
