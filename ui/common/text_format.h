// Small helpers for user-visible text.
//
// Counts are shown with the locale's digit grouping ("35,764 rules") and the right noun form
// ("1 rule"); the application ships no translations, so Qt's "%n rule(s)" would stay literal.
#pragma once

#include <QLatin1Char>
#include <QLocale>
#include <QString>

namespace gwb::ui {

inline QString countText(qint64 count, const QString& singular, const QString& plural) {
  return QLocale().toString(count) % QLatin1Char(' ') % (count == 1 ? singular : plural);
}

}  // namespace gwb::ui
