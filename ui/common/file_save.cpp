#include "ui/common/file_save.h"

#include <cmath>
#include <limits>
#include <ostream>
#include <string>

#include "gwb/common/atomic_file.h"
#include "ui/common/qt_conversions.h"

namespace gwb::ui {

bool saveBytesAtomically(const QString& path, const QByteArray& bytes, QString* error) {
  std::string why;
  const bool ok = gwb::writeFileAtomically(
      toNativePath(path),
      [&bytes](std::ostream& out) {
        out.write(bytes.constData(), bytes.size());
        return static_cast<bool>(out);
      },
      &why);
  if (!ok && error) *error = toQString(why);
  return ok;
}

QJsonValue finiteOrNull(double value) {
  return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

double numberOrNaN(const QJsonValue& value) {
  return value.isDouble() ? value.toDouble() : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace gwb::ui
