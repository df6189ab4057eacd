// Editing a grammar: the editor numbers lines and underlines diagnostics at their line, an
// edit re-reads the grammar (rule table, diagnostics, stepper), saving is atomic, and
// closing a document with unsaved edits asks first.
#include <algorithm>
#include <memory>

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <gtest/gtest.h>

#include "qt_printers.h"
#include "ui/earley/grammar_document.h"
#include "ui/earley/grammar_editor.h"
#include "ui/earley/grammar_table_model.h"
#include "ui/earley/grammar_view.h"
#include "ui/earley/parse_session.h"
#include "ui/earley/stepper_view.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/diagnostics_panel.h"
#include "ui/frame/main_window.h"

namespace gwb::ui {
namespace {

const QString kGrammar = QStringLiteral(
    "%start S\n"
    "S -> NP VP [1.0]\n"
    "NP -> 'john' [0.6] | 'mary' [0.4]\n"
    "VP -> V NP [1.0]\n"
    "V -> 'sees' [1.0]\n");

// The underlined ranges of the editor, as (line, first column, colour) for each diagnostic.
std::vector<int> underlinedLines(const GrammarEditor& editor) {
  std::vector<int> lines;
  for (const QTextEdit::ExtraSelection& s : editor.extraSelections()) {
    if (s.format.underlineStyle() == QTextCharFormat::WaveUnderline)
      lines.push_back(s.cursor.block().blockNumber() + 1);
  }
  return lines;
}

class GrammarEditingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    path_ = dir_.filePath(QStringLiteral("small.cfg"));
    writeFile(kGrammar);
  }
  void writeFile(const QString& text) {
    QFile file(path_);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text.toUtf8());
  }
  QString readFile() const {
    QFile file(path_);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    return QString::fromUtf8(file.readAll());
  }
  QTemporaryDir dir_;
  QString path_;
};

TEST_F(GrammarEditingTest, DiagnosticsAreUnderlinedAtTheirLine) {
  // Line 3 lacks a probability, line 5 names an undefined symbol in a rule.
  const QString broken = QStringLiteral(
      "%start S\n"
      "S -> NP VP [1.0]\n"
      "NP -> 'john' [0.6] | 'mary'\n"
      "VP -> V NP [1.0]\n"
      "V -> 'sees' [1.0] | W [0.5]\n");
  GrammarView view(GrammarDocument::fromText(path_, broken));
  GrammarEditor* editor = view.editor();
  EXPECT_EQ(editor->toPlainText(), broken);
  const gwb::Diagnostics& diagnostics = view.document().diagnostics();
  ASSERT_FALSE(diagnostics.empty());
  std::vector<int> expected;
  for (const gwb::Diagnostic& d : diagnostics)
    if (d.line > 0) expected.push_back(d.line);
  std::sort(expected.begin(), expected.end());
  std::vector<int> underlined = underlinedLines(*editor);
  std::sort(underlined.begin(), underlined.end());
  EXPECT_EQ(underlined, expected);
  EXPECT_NE(std::find(expected.begin(), expected.end(), 3), expected.end());
  EXPECT_FALSE(editor->messagesAt(3).isEmpty());
  EXPECT_TRUE(editor->messagesAt(2).isEmpty());
  EXPECT_GT(editor->gutterWidth(), editor->fontMetrics().horizontalAdvance(QStringLiteral("99")));
  editor->goToLine(4);
  EXPECT_EQ(editor->textCursor().blockNumber(), 3);
}

TEST_F(GrammarEditingTest, AnEditReReadsTheGrammarEverywhere) {
  GrammarView view(GrammarDocument::load(path_));
  view.stepperView()->setSentence(QStringLiteral("john sees mary"));
  ASSERT_TRUE(view.stepperView()->waitForParse());
  ASSERT_TRUE(view.stepperView()->session()->result().success);
  EXPECT_EQ(view.model()->rowCount(), 5);
  EXPECT_FALSE(view.document().isModified());

  // Add a word; the timer re-reads after a pause in typing.
  view.editor()->setPlainText(kGrammar + QStringLiteral("V -> 'likes' [0.0]\n"));
  EXPECT_TRUE(QTest::qWaitFor([&] { return view.model()->rowCount() == 6; }, 600000));
  EXPECT_TRUE(view.document().isModified());
  EXPECT_TRUE(view.stepperView()->waitForParse());
  view.stepperView()->setSentence(QStringLiteral("john likes mary"));
  ASSERT_TRUE(view.stepperView()->waitForParse());
  // 'likes' has probability 0: a sentence the grammar cannot generate.
  EXPECT_FALSE(view.stepperView()->session()->result().success);

  // A broken line shows up in the editor without any save.
  view.editor()->setPlainText(kGrammar + QStringLiteral("V -> 'likes'\n"));
  view.applyEdits();
  EXPECT_FALSE(underlinedLines(*view.editor()).empty());
  EXPECT_EQ(readFile(), kGrammar);  // nothing written yet

  // Save writes exactly the text, atomically, and clears the mark.
  view.editor()->setPlainText(kGrammar + QStringLiteral("V -> 'likes' [0.5]\n"));
  view.applyEdits();
  QString error;
  ASSERT_TRUE(view.document().save(&error)) << error.toStdString();
  EXPECT_FALSE(view.document().isModified());
  EXPECT_EQ(readFile(), kGrammar + QStringLiteral("V -> 'likes' [0.5]\n"));
  EXPECT_EQ(QDir(dir_.path()).entryList(QDir::Files).size(), 1);  // no temporary left
}

TEST_F(GrammarEditingTest, SaveAsInAnotherFormatReloadsTheText) {
  GrammarView view(GrammarDocument::load(path_));
  const QString converted = dir_.filePath(QStringLiteral("small.grammar"));
  QString error;
  ASSERT_TRUE(view.document().saveAs(converted, gwb::GrammarFormat::Earleyx, &error))
      << error.toStdString();
  EXPECT_EQ(view.document().filePath(), converted);
  EXPECT_TRUE(view.editor()->toPlainText().contains(QStringLiteral("S->[NP VP]")));
  EXPECT_EQ(view.model()->rowCount(), 5);
  EXPECT_FALSE(view.document().isModified());
}

class UnsavedChangesTest : public GrammarEditingTest {
 protected:
  void SetUp() override {
    GrammarEditingTest::SetUp();
    store_ = std::make_unique<QSettings>(dir_.filePath(QStringLiteral("settings.ini")),
                                         QSettings::IniFormat);
    settings_ = std::make_unique<AppSettings>(*store_);
    window_ = std::make_unique<MainWindow>(*settings_);
    ASSERT_TRUE(window_->openGrammar(path_));
    window_->setUnsavedChangesPrompt([this](const QString& name) {
      asked_ << name;
      return answer_;
    });
  }
  void edit() {
    GrammarView* view = window_->currentGrammarView();
    view->editor()->setPlainText(kGrammar + QStringLiteral("# edited\n"));
    view->applyEdits();
  }
  std::unique_ptr<QSettings> store_;
  std::unique_ptr<AppSettings> settings_;
  std::unique_ptr<MainWindow> window_;
  QStringList asked_;
  QMessageBox::StandardButton answer_ = QMessageBox::Cancel;
};

TEST_F(UnsavedChangesTest, UndoingEveryEditClearsTheModifiedMarker) {
  GrammarView* view = window_->currentGrammarView();
  GrammarEditor* editor = view->editor();
  editor->moveCursor(QTextCursor::End);
  QTest::keyClicks(editor, QStringLiteral("# a note"));
  view->applyEdits();
  ASSERT_TRUE(view->document().isModified());
  EXPECT_TRUE(window_->documentTabs()->tabText(0).endsWith(QStringLiteral("\u25cf")));
  while (editor->document()->isUndoAvailable()) editor->undo();
  view->applyEdits();
  EXPECT_EQ(editor->toPlainText(), kGrammar);
  EXPECT_FALSE(view->document().isModified());
  EXPECT_EQ(window_->documentTabs()->tabText(0), QStringLiteral("small.cfg"));
  EXPECT_TRUE(window_->closeDocument(0));
  EXPECT_TRUE(asked_.isEmpty());
}

TEST_F(UnsavedChangesTest, UnmodifiedDocumentsCloseWithoutAsking) {
  EXPECT_TRUE(window_->closeDocument(0));
  EXPECT_TRUE(asked_.isEmpty());
  EXPECT_EQ(window_->documentCount(), 0);
}

TEST_F(UnsavedChangesTest, CancelKeepsTheDocumentOpen) {
  edit();
  EXPECT_TRUE(window_->documentTabs()->tabText(0).endsWith(QStringLiteral("\u25cf")));
  answer_ = QMessageBox::Cancel;
  EXPECT_FALSE(window_->closeDocument(0));
  EXPECT_EQ(asked_, QStringList{QStringLiteral("small.cfg")});
  EXPECT_EQ(window_->documentCount(), 1);
  // Closing the window is refused too.
  EXPECT_FALSE(window_->close());
  EXPECT_EQ(window_->documentCount(), 1);
}

TEST_F(UnsavedChangesTest, DiscardClosesWithoutWriting) {
  edit();
  answer_ = QMessageBox::Discard;
  EXPECT_TRUE(window_->closeDocument(0));
  EXPECT_EQ(window_->documentCount(), 0);
  EXPECT_EQ(readFile(), kGrammar);
}

TEST_F(UnsavedChangesTest, SaveWritesThenCloses) {
  edit();
  answer_ = QMessageBox::Save;
  EXPECT_TRUE(window_->closeDocument(0));
  EXPECT_EQ(window_->documentCount(), 0);
  EXPECT_EQ(readFile(), kGrammar + QStringLiteral("# edited\n"));
}

TEST_F(UnsavedChangesTest, SaveActionWritesTheCurrentGrammar) {
  edit();
  EXPECT_TRUE(window_->saveCurrent());
  EXPECT_EQ(readFile(), kGrammar + QStringLiteral("# edited\n"));
  EXPECT_FALSE(window_->documentTabs()->tabText(0).endsWith(QStringLiteral("\u25cf")));
  EXPECT_TRUE(window_->closeDocument(0));
  EXPECT_TRUE(asked_.isEmpty());
}

}  // namespace
}  // namespace gwb::ui
