// GoogleTest printers for Qt types, so failed expectations show text rather than raw bytes.
// Found by argument-dependent lookup; include it in every UI test file that compares them.
#pragma once

#include <ostream>

#include <QString>
#include <QStringList>

// NOLINTNEXTLINE(readability-identifier-naming): GoogleTest looks for this exact name.
inline void PrintTo(const QString& text, std::ostream* out) {
  *out << '"' << text.toStdString() << '"';
}

// NOLINTNEXTLINE(readability-identifier-naming): GoogleTest looks for this exact name.
inline void PrintTo(const QStringList& list, std::ostream* out) {
  *out << '[';
  for (qsizetype i = 0; i < list.size(); ++i) {
    if (i > 0) *out << ", ";
    PrintTo(list[i], out);
  }
  *out << ']';
}
