// A corpus file as the workbench opens it: one of three kinds, told apart by its content.
//
//   * plain sentences, one a line, words separated by white space; blank lines and comment
//     lines (a first token starting with '#', other than "##") are skipped: samples/*.txt;
//   * social-cue utterances (social_corpus.h): one a line, or a whole recording on one line
//     (the `.concat` files; read with SocialCorpusReadOptions::utterancesOnOneLine);
//   * a gold topic annotation (social_corpus.h, readGoldAnnotation): `.topic ## words`.
//
// The kind is decided from the first 50 lines that are neither blank nor comments: a '#' token
// makes it social cues, otherwise a "##" token makes it gold topics, otherwise sentences. Every
// file goes through the core's line reader (common/text_lines.h), so a UTF-8 byte-order mark is
// skipped and lines end at LF, CRLF or a lone CR alike, in the workbench as in the CLI; a UTF-16
// file is reported. Readers never throw: they return what they could read and diagnostics.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gwb/common/diagnostic.h"
#include "gwb/grounded/social_corpus.h"

namespace gwb {

enum class CorpusKind { Sentences, SocialCues, GoldTopics };

const char* corpusKindName(CorpusKind kind);  // "sentences", "social cues", "gold topics"
CorpusKind detectCorpusKind(std::string_view text);

struct CorpusSentence {
  std::vector<std::string> words;  // never empty
  int line = 0;                    // 1-based
};

struct SentenceCorpusLoad {
  std::vector<CorpusSentence> sentences;
  Diagnostics diagnostics;  // no content errors exist; only an unreadable file
  bool ok() const { return !diagnostics.hasErrors(); }
};

// Plain sentences (see above).
SentenceCorpusLoad readSentenceCorpus(std::string_view text, const std::string& sourceName);

// Any of the three kinds; only the member of `kind` is filled.
struct CorpusFileLoad {
  bool opened = false;  // the file could be read (its content may still have errors)
  CorpusKind kind = CorpusKind::Sentences;
  std::vector<CorpusSentence> sentences;
  SocialCorpus social;
  GoldAnnotation gold;
  Diagnostics diagnostics;
  bool ok() const { return !diagnostics.hasErrors(); }
};

CorpusFileLoad readCorpusText(std::string_view text, const std::string& sourceName);
// A file that cannot be read, or is UTF-16: `opened` false and one error.
CorpusFileLoad loadCorpusFile(const std::string& path);

}  // namespace gwb
