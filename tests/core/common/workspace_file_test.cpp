// The workspace file: what is written (Qt's layout, byte for byte), what reads back, and every
// message the reader gives for a file it cannot take.
#include "gwb/common/workspace_file.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "gwb/common/diagnostic.h"
#include "shared_data.h"

namespace gwb {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

WorkspaceFile sampleWorkspace(const std::string& base) {
  WorkspaceFile w;
  w.documents.push_back(
      {WorkspaceDocumentKind::Grammar, base + "/g/a.cfg", "S",
       Json{{"page", "stepper"},
            {"stepper", {{"position", 7}, {"zoom", 1.25}, {"breakpoints", Json::array()}}}}});
  w.documents.push_back(
      {WorkspaceDocumentKind::Corpus, base + "/c.txt", "", Json{{"filter", "x"}}});
  w.documents.push_back(
      {WorkspaceDocumentKind::DsStepper, base + "/dylan/2013-english-ttr", "",
       Json{{"sentence", "john likes mary"}, {"strategy", "best-first"}, {"selected", 5}}});
  w.documents.push_back({WorkspaceDocumentKind::DsStepper, "", "", Json::object()});
  w.documents.push_back({WorkspaceDocumentKind::Ccg, base + "/ccg/geography.flex", "",
                         Json{{"sentences", base + "/ccg/geography.ccg"},
                              {"sentence", "what states border texas"},
                              {"kbest", 5},
                              {"beam", 20},
                              {"cell", Json::array({1, 3})}}});
  w.documents.push_back({WorkspaceDocumentKind::Ccg, "", "", Json::object()});
  w.documents.push_back(
      {WorkspaceDocumentKind::Grammar, ":/samples/pp-attachment.cfg", "", Json::object()});
  w.documents.push_back({WorkspaceDocumentKind::Grammar, "/usr/share/x.cfg", "", Json::object()});
  w.documents.push_back({WorkspaceDocumentKind::Fubl, base + "/fubl/train.ccg", "",
                         Json{{"training", base + "/fubl/train.ccg"},
                              {"test", base + "/fubl/test.ccg"},
                              {"model", base + "/fubl/out.ccgmodel"},
                              {"shownModel", base + "/fubl/out.ccgmodel"},
                              {"passes", 5},
                              {"page", "lexicon"}}});
  w.documents.push_back(
      {WorkspaceDocumentKind::Induction, "", "",
       Json{{"geometry", "AQID"}, {"runs", Json::array({Json{{"method", "vb"}}})}}});
  w.current = 1;
  w.windowGeometry = std::string("\x01\x02geometry\x00\xff", 12);
  w.windowState = "state";
  return w;
}

const std::string& documentPath(const Json& json, std::size_t i) {
  return json.at("documents").at(i).at("path").get_ref<const std::string&>();
}

TEST(WorkspaceFileTest, RoundTripsWithRelativePaths) {
  const std::string base = "/home/teacher/course";
  const WorkspaceFile w = sampleWorkspace(base);
  const Json json = workspaceToJson(w, base);
  EXPECT_EQ(documentPath(json, 0), "g/a.cfg");
  EXPECT_EQ(documentPath(json, 2), "dylan/2013-english-ttr");
  EXPECT_EQ(documentPath(json, 3), "");
  EXPECT_EQ(documentPath(json, 4), "ccg/geography.flex");
  // A CCG tab's sentence file travels with it like the lexicon.
  EXPECT_EQ(json.at("documents").at(4).at("view").at("sentences"), "ccg/geography.ccg");
  EXPECT_EQ(documentPath(json, 5), "");
  EXPECT_EQ(documentPath(json, 6), ":/samples/pp-attachment.cfg");
  EXPECT_EQ(documentPath(json, 7), "/usr/share/x.cfg");  // far away: kept absolute
  // A FUBL tab's files travel with it like its training file.
  EXPECT_EQ(documentPath(json, 8), "fubl/train.ccg");
  for (const char* field : {"training", "test", "model", "shownModel"}) {
    const std::string stored = json.at("documents").at(8).at("view").at(field);
    EXPECT_EQ(stored.rfind("fubl/", 0), 0U) << field << ": " << stored;
  }
  EXPECT_FALSE(json.at("documents").at(1).contains("root"));

  const std::string text = workspaceText(w, base);
  const WorkspaceFileLoad back = readWorkspaceText(text, "w.gwb-workspace", base);
  ASSERT_TRUE(back.ok()) << toString(back.diagnostics.items().front());
  EXPECT_TRUE(back.diagnostics.empty());
  EXPECT_EQ(back.workspace, w);
  EXPECT_EQ(workspaceText(back.workspace, base), text);

  // Read from another folder, relative paths resolve against that folder.
  const WorkspaceFileLoad moved = readWorkspaceText(text, "w", "/mnt/usb");
  ASSERT_TRUE(moved.ok());
  EXPECT_EQ(moved.workspace.documents[0].path, "/mnt/usb/g/a.cfg");
  EXPECT_EQ(moved.workspace.documents[4].path, "/mnt/usb/ccg/geography.flex");
  EXPECT_EQ(moved.workspace.documents[4].view.at("sentences"), "/mnt/usb/ccg/geography.ccg");
  EXPECT_EQ(moved.workspace.documents[7].path, "/usr/share/x.cfg");
  EXPECT_EQ(moved.workspace.documents[8].path, "/mnt/usb/fubl/train.ccg");
  EXPECT_EQ(moved.workspace.documents[8].view.at("shownModel"), "/mnt/usb/fubl/out.ccgmodel");
  EXPECT_FALSE(moved.workspace.documents[8].view.contains("fixed"));
  // Without a base folder they stay as written.
  EXPECT_EQ(workspaceFromJson(json, "", "w").workspace.documents[0].path, "g/a.cfg");
}

TEST(WorkspaceFileTest, PathsAreNormalised) {
  struct Case {
    const char* stored;
    const char* resolved;  // against /base/dir
    const char* storedAgain;
  };
  const Case cases[] = {
      {"a/./b/../c.cfg", "/base/dir/a/c.cfg", "a/c.cfg"},
      {"../x.cfg", "/base/x.cfg", "../x.cfg"},
      {"../../x.cfg", "/x.cfg", "../../x.cfg"},
      {"../../../../x.cfg", "/x.cfg", "../../x.cfg"},
      {".", "/base/dir", "."},
      {"sub/", "/base/dir/sub", "sub"},
      {"/abs//y/./z/", "/abs/y/z", "../../abs/y/z"},
      {":/samples/a.cfg", ":/samples/a.cfg", ":/samples/a.cfg"},
      {"./:/a.cfg", "/base/dir/:/a.cfg", "./:/a.cfg"},  // a folder named ":", not a sample
  };
  for (const Case& c : cases) {
    const Json json = {{"format", "grammar-workbench-workspace"},
                       {"version", 1},
                       {"documents", {{{"kind", "grammar"}, {"path", c.stored}}}}};
    const WorkspaceFileLoad load = workspaceFromJson(json, "/base/dir", "w");
    ASSERT_TRUE(load.ok()) << c.stored;
    EXPECT_EQ(load.workspace.documents[0].path, c.resolved) << c.stored;
    EXPECT_EQ(documentPath(workspaceToJson(load.workspace, "/base/dir"), 0), c.storedAgain)
        << c.stored;
  }
}

// The text Qt's QJsonDocument::toJson(Indented) writes for the same values (the ui test
// WorkspaceTest.CoreWritesWhatQtWrites checks this against Qt itself).
TEST(WorkspaceFileTest, WritesQtsLayout) {
  WorkspaceFile w;
  w.documents.push_back({WorkspaceDocumentKind::Grammar, "/w/a.cfg", "S",
                         Json{{"zoom", 1.25}, {"rows", Json::array()}, {"tree", Json::object()}}});
  w.current = 0;
  w.windowState = "st";
  EXPECT_EQ(workspaceText(w, "/w"), R"({
    "current": 0,
    "documents": [
        {
            "kind": "grammar",
            "path": "a.cfg",
            "root": "S",
            "view": {
                "rows": [
                ],
                "tree": {
                },
                "zoom": 1.25
            }
        }
    ],
    "format": "grammar-workbench-workspace",
    "version": 1,
    "window": {
        "geometry": "",
        "state": "c3Q="
    }
}
)");
}

TEST(WorkspaceFileTest, NumbersAndStringsAreWrittenAsQtWritesThem) {
  struct Case {
    Json value;
    const char* text;
  };
  // Qt 6's output for each value (QJsonValue(double) keeps whole numbers up to 2^53 as
  // integers; otherwise the shorter of the decimal and exponent forms).
  const Case cases[] = {
      {1.0, "1"},
      {1.25, "1.25"},
      {100000.0, "100000"},
      {100000.5, "100000.5"},
      {1e15, "1000000000000000"},
      {1e16, "1e+16"},
      {9007199254740994.0, "9007199254740994"},
      {1e20, "1e+20"},
      {1e21, "1e+21"},
      {0.0001, "1e-04"},
      {0.00001, "1e-05"},
      {0.000123, "0.000123"},
      {1.5e-7, "1.5e-07"},
      {3.14159, "3.14159"},
      {-2.5, "-2.5"},
      {0.1, "0.1"},
      {1e100, "1e+100"},
      {-1e-300, "-1e-300"},
      {123456789012345678.0, "123456789012345680"},
      {5e-324, "5e-324"},
      {1.7976931348623157e308, "1.7976931348623157e+308"},
      {-0.0, "0"},
      {9223372036854775807.0, "9223372036854776000"},
      {std::uint64_t{18446744073709551615U}, "18446744073709552000"},
      {std::int64_t{-9223372036854775807 - 1}, "-9223372036854775808"},
      {std::uint64_t{1} << 60U, "1152921504606846976"},
      {Json(nullptr), "null"},
      {true, "true"},
      {std::string("x\x01\x7f\"\\/\b\f\n\r\t \xc3\xa9 \xf0\x9d\x84\x9e"),
       "\"x\\u0001\x7f\\\"\\\\/\\b\\f\\n\\r\\t \xc3\xa9 \xf0\x9d\x84\x9e\""},
      {std::string("a\0b", 3), "\"a\\u0000b\""},
  };
  for (const Case& c : cases) EXPECT_EQ(indentedJsonText(c.value), c.text) << c.value.dump();
  // Keys in UTF-16 order, as QJsonObject keeps them: U+1D11E (a surrogate pair) before U+FFFD.
  const Json keys = {{"\xef\xbf\xbd", 1},
                     {"\xf0\x9d\x84\x9e", 2},
                     {"\xc3\xa9", 3},
                     {"a", 4},
                     {"Ab", 5},
                     {"a b", 6},
                     {"", 7}};
  EXPECT_EQ(indentedJsonText(keys),
            "{\n    \"\": 7,\n    \"Ab\": 5,\n    \"a\": 4,\n    \"a b\": 6,\n    \"\xc3\xa9\": "
            "3,\n    \"\xf0\x9d\x84\x9e\": 2,\n    \"\xef\xbf\xbd\": 1\n}\n");
}

TEST(WorkspaceFileTest, Base64) {
  const std::pair<std::string, std::string> cases[] = {
      {"", ""},        {"f", "Zg=="},        {"fo", "Zm8="},
      {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {std::string("\x00\xff\xfe", 3), "AP/+"},
  };
  for (const auto& [bytes, text] : cases) {
    EXPECT_EQ(toBase64(bytes), text);
    EXPECT_EQ(fromBase64(text), bytes) << text;
  }
  for (const char* bad : {"Zg=", "Z===", "Zg==Zg==", "Zm9v\n", "Zm-v", "=Zm9"})
    EXPECT_FALSE(fromBase64(bad)) << bad;
}

struct ErrorCase {
  const char* text;
  const char* firstDiagnostic;  // as the CLI prints it
};

TEST(WorkspaceFileTest, EveryErrorNamesTheFileAndWhatWasExpected) {
  const ErrorCase cases[] = {
      {"",
       "w:1:1: error: not valid JSON: syntax error while parsing value - unexpected end of "
       "input; expected '[', '{', or a literal"},
      {"{ not json",
       "w:1:4: error: not valid JSON: syntax error while parsing object key - invalid literal; "
       "last read: '{ no'; expected string literal"},
      {"{\r\"format\": 1,\r\"version\": 1,\r}",
       "w:4:1: error: not valid JSON: syntax error while parsing object key - unexpected '}'; "
       "expected string literal"},
      {"\xef\xbb\xbf{\"a\": [1e400]}",
       "w:1:12: error: not valid JSON: number overflow parsing '1e400'"},
      {"{\"a\": \"\xff\"}",
       "w:1:8: error: not valid JSON: syntax error while parsing value - invalid string: "
       "ill-formed "
       "UTF-8 byte; last read: '\"\xff'"},
      {"\xff\xfe{",
       "w:1:1: error: the file is UTF-16 encoded; expected UTF-8 (or ASCII) text: "
       "save it as UTF-8"},
      {"[]",
       "w: error: not a Grammar Workbench workspace: expected a JSON object with \"format\": "
       "\"grammar-workbench-workspace\", found an array"},
      {R"({"documents": []})",
       "w: error: not a Grammar Workbench workspace: expected \"format\": "
       "\"grammar-workbench-workspace\", found no \"format\""},
      {R"({"format": "grammar-workbench-session"})",
       "w: error: not a Grammar Workbench workspace: expected \"format\": "
       "\"grammar-workbench-workspace\", found the string \"grammar-workbench-session\""},
      {R"({"format": "grammar-workbench-workspace"})",
       "w: error: no \"version\": expected the format's version, 1"},
      {R"({"format": "grammar-workbench-workspace", "version": "1"})",
       "w: error: \"version\": expected a whole number, found the string \"1\""},
      {R"({"format": "grammar-workbench-workspace", "version": 7})",
       "w: error: workspace version 7 is not supported: this program reads version 1 (a newer "
       "program wrote it?)"},
      {R"({"format": "grammar-workbench-workspace", "version": 1, "documents": {}})",
       "w: error: \"documents\": expected an array of documents, found an object"},
      {R"({"format": "grammar-workbench-workspace", "version": 1, "documents": ["a.cfg"]})",
       "w: error: document 1: expected an object with \"kind\", \"path\" and \"view\", found the "
       "string \"a.cfg\""},
      {R"({"format": "grammar-workbench-workspace", "version": 1, "documents": [{"path": "a"}]})",
       "w: error: document 1 has no \"kind\": expected one of \"grammar\", \"corpus\", "
       "\"ds-stepper\", \"ds-learn\", \"ccg\", \"fubl\", \"induction\", \"discourse\", "
       "\"transitions\" or \"experiments\""},
      {R"({"format": "grammar-workbench-workspace", "version": 1, "documents": [{"kind": 2}]})",
       "w: error: document 1: expected \"kind\" to be one of \"grammar\", \"corpus\", "
       "\"ds-stepper\", \"ds-learn\", \"ccg\", \"fubl\", \"induction\", \"discourse\", "
       "\"transitions\" or "
       "\"experiments\", "
       "found the number 2"},
      {R"({"format": "grammar-workbench-workspace", "version": 1,
           "documents": [{"kind": "grammar", "path": "a"}, {"kind": "poem", "path": "x"}]})",
       "w: error: document 2 has an unknown kind \"poem\": expected one of \"grammar\", "
       "\"corpus\", "
       "\"ds-stepper\", \"ds-learn\", \"ccg\", \"fubl\", \"induction\", \"discourse\", "
       "\"transitions\" or "
       "\"experiments\""},
      {R"({"format": "grammar-workbench-workspace", "version": 1, "documents": [{"kind": "grammar"}]})",
       "w: error: document 1 (grammar) has no path: expected \"path\": the file it shows"},
      {R"({"format": "grammar-workbench-workspace", "version": 1,
           "documents": [{"kind": "corpus", "path": ["a"]}]})",
       "w: error: document 1: expected \"path\" to be a string, found an array"},
      {R"({"format": "grammar-workbench-workspace", "version": 1,
           "documents": [{"kind": "grammar", "path": "a", "root": null}]})",
       "w: error: document 1: expected \"root\" to be a string, found null"},
      {R"({"format": "grammar-workbench-workspace", "version": 1,
           "documents": [{"kind": "grammar", "path": "a", "view": "stepper"}]})",
       "w: error: document 1: expected \"view\" to be an object (the view's settings), found the "
       "string \"stepper\""},
      {R"({"format": "grammar-workbench-workspace", "version": 1,
           "documents": [{"kind": "ccg", "path": "a.flex", "view": {"sentences": 3}}]})",
       "w: error: document 1 (ccg): expected \"view\" field \"sentences\" to be the path of a "
       "sentence file, found the number 3"},
      {R"({"format": "grammar-workbench-workspace", "version": 1,
           "documents": [{"kind": "ds-learn", "path": "", "view": {"seed": true}}]})",
       "w: error: document 1 (ds-learn): expected \"view\" field \"seed\" to be the path of a "
       "seed grammar folder, found true"},
      {R"({"format": "grammar-workbench-workspace", "version": 1,
           "documents": [{"kind": "fubl", "path": "t.ccg", "view": {"test": 3}}]})",
       "w: error: document 1 (fubl): expected \"view\" field \"test\" to be the path of a "
       "test file, found the number 3"},
      {R"({"format": "grammar-workbench-workspace", "version": 1, "current": "0"})",
       "w: error: \"current\": expected the index of the current tab (a whole number), found the "
       "string \"0\""},
      {R"({"format": "grammar-workbench-workspace", "version": 1, "window": true})",
       "w: error: \"window\": expected an object with \"geometry\" and \"state\", found true"},
      {R"({"format": "grammar-workbench-workspace", "version": 1, "window": {"state": 5}})",
       "w: error: \"window\": expected \"state\" to be base64 text, found the number 5"},
      {"[[[[[[[[[]]]]]]]]]",
       "w:1:5: error: arrays and objects nested more than 4 deep: expected a workspace nested at "
       "most that deep"},
      {"{\"a\": \"[[[[[[[[\",\n \"b\": {\"c\": [[{\"d\": 1}]]}}",
       "w:2:15: error: arrays and objects nested more than 4 deep: expected a workspace nested at "
       "most that deep"},
      {"{\"format\": \"grammar-workbench-workspace\", \"version\": 1, \"padding\": \""
       "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567"
       "890123456789012345678901234567890123456789012345678901234567890123456789\"}",
       "w: error: the file is 230 bytes: expected a workspace of at most 200 bytes"},
  };
  WorkspaceReadLimits limits;
  limits.maxDepth = 4;
  limits.maxBytes = 200;
  for (const ErrorCase& c : cases) {
    const WorkspaceFileLoad load = readWorkspaceText(c.text, "w", "/base", limits);
    ASSERT_FALSE(load.ok()) << c.text;
    EXPECT_EQ(toString(load.diagnostics.items().front()), c.firstDiagnostic) << c.text;
    EXPECT_TRUE(load.workspace.documents.empty());
  }
}

TEST(WorkspaceFileTest, WarningsLeaveTheWorkspaceReadable) {
  const ErrorCase cases[] = {
      {R"({"format": "grammar-workbench-workspace", "version": 1, "theme": "dark"})",
       "w: warning: unknown field \"theme\" in the workspace ignored (expected \"format\", "
       "\"version\", \"current\", \"documents\", \"window\")"},
      {R"({"format": "grammar-workbench-workspace", "version": 1,
           "documents": [{"kind": "grammar", "path": "a", "pinned": true}]})",
       "w: warning: unknown field \"pinned\" in document 1 ignored (expected \"kind\", \"path\", "
       "\"root\", \"view\")"},
      {R"({"format": "grammar-workbench-workspace", "version": 1, "current": 3,
           "documents": [{"kind": "grammar", "path": "a"}]})",
       "w: warning: \"current\": tab 3 is not one of the 1 documents; no tab is made current"},
      {R"({"format": "grammar-workbench-workspace", "version": 1.0,
           "window": {"geometry": "not base64!", "state": "c3Q="}})",
       "w: warning: \"window\": \"geometry\" is not base64 text; the window keeps its own "
       "geometry"},
  };
  for (const ErrorCase& c : cases) {
    const WorkspaceFileLoad load = readWorkspaceText(c.text, "w", "/base");
    ASSERT_TRUE(load.ok()) << c.text;
    ASSERT_EQ(load.diagnostics.size(), 1u) << c.text;
    EXPECT_EQ(toString(load.diagnostics.items().front()), c.firstDiagnostic) << c.text;
    EXPECT_EQ(load.workspace.current, -1);
  }
  EXPECT_EQ(readWorkspaceText(std::string(R"({"format": "grammar-workbench-workspace",
      "version": 1, "window": {"geometry": "x", "state": "c3Q="}})"),
                              "w", "/base")
                .workspace.windowState,
            "st");
}

TEST(WorkspaceFileTest, SavesAtomicallyAndLoadsBack) {
  const fs::path dir =
      fs::temp_directory_path() / ("gwb-workspace-test-" + std::to_string(::getpid()));
  fs::create_directories(dir / "g");
  const std::string path = (dir / "w.gwb-workspace").string();
  const WorkspaceFile w = sampleWorkspace(dir.string());
  std::string error;
  ASSERT_TRUE(saveWorkspaceFile(w, path, &error)) << error;
  std::ifstream in(path, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  EXPECT_NE(text.find("\"path\": \"g/a.cfg\""), std::string::npos) << text;
  const WorkspaceFileLoad back = loadWorkspaceFile(path);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.workspace, w);
  // Nothing beside the file but the file (no temporary left over).
  int entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 2);  // w.gwb-workspace and g/
  EXPECT_FALSE(saveWorkspaceFile(w, (dir / "no/such/dir/w.gwb-workspace").string(), &error));
  EXPECT_FALSE(error.empty());
  const WorkspaceFileLoad missing = loadWorkspaceFile((dir / "missing").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.diagnostics.items().front().file, (dir / "missing").string());
  fs::remove_all(dir);
}

// The fuzz seeds are workspaces as the workbench wrote them (and two hand-made ones): each loads,
// and those in Qt's layout are written back byte for byte.
TEST(WorkspaceFileTest, SavedWorkspacesLoadAndWriteBackTheSameBytes) {
  const fs::path folder = fs::path(testing::sourceDir()) / "fuzz/regressions/workspace";
  int files = 0;
  for (const auto& entry : fs::directory_iterator(folder)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const std::string base = "/home/teacher/course";
    const WorkspaceFileLoad load = readWorkspaceText(text, entry.path().string(), base);
    ASSERT_TRUE(load.ok()) << toString(load.diagnostics.items().front());
    ASSERT_FALSE(load.workspace.documents.empty()) << entry.path();
    const bool qtLayout = text.rfind("{\n    \"", 0) == 0;
    if (qtLayout) {
      EXPECT_EQ(workspaceText(load.workspace, base), text) << entry.path();
    }
    ++files;
  }
  EXPECT_GE(files, 4);
}

}  // namespace
}  // namespace gwb
