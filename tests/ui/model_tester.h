// QAbstractItemModelTester that fails the running GoogleTest test on any complaint (the
// tester itself only logs in Warning mode, and Fatal mode would abort the whole binary).
#pragma once

#include <memory>

#include <QAbstractItemModelTester>
#include <QString>
#include <QStringList>
#include <gtest/gtest.h>

namespace gwb::ui::testing {

class CheckedModelTester {
 public:
  explicit CheckedModelTester(QAbstractItemModel* model) {
    complaints() = {};
    previous_ = qInstallMessageHandler(&CheckedModelTester::handle);
    tester_ = std::make_unique<QAbstractItemModelTester>(
        model, QAbstractItemModelTester::FailureReportingMode::Warning);
  }
  ~CheckedModelTester() {
    tester_.reset();
    qInstallMessageHandler(previous_);
    EXPECT_TRUE(complaints().isEmpty()) << complaints().join(QLatin1Char('\n')).toStdString();
  }
  CheckedModelTester(const CheckedModelTester&) = delete;
  CheckedModelTester& operator=(const CheckedModelTester&) = delete;

 private:
  static QStringList& complaints() {
    static QStringList list;
    return list;
  }
  static void handle(QtMsgType, const QMessageLogContext& context, const QString& message) {
    if (context.category && QLatin1String(context.category) == QLatin1String("qt.modeltest"))
      complaints() << message;
  }
  QtMessageHandler previous_ = nullptr;
  std::unique_ptr<QAbstractItemModelTester> tester_;
};

}  // namespace gwb::ui::testing
