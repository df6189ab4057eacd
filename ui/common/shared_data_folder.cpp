#include "ui/common/shared_data_folder.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace gwb::ui {

QString sharedDataFolder(const QString& relative, const QString& marker) {
  const QString tail = QLatin1Char('/') + relative;
  QStringList candidates;
  const QString env = qEnvironmentVariable("GWB_SHARED_DIR");
  if (!env.isEmpty()) candidates << env + tail;
#ifdef GWB_SAMPLES_DIR
  candidates << QStringLiteral(GWB_SAMPLES_DIR "/../../shared") + tail;
#endif
  candidates << QCoreApplication::applicationDirPath() + QStringLiteral("/../../../shared") + tail;
  for (const QString& candidate : candidates) {
    if (QFileInfo::exists(candidate + QLatin1Char('/') + marker)) return QDir::cleanPath(candidate);
  }
  return {};
}

}  // namespace gwb::ui
