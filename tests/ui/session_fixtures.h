// Parse sessions for the UI tests: the PP-attachment teaching grammar (samples/) parsed
// synchronously, with the options a test asks for.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/earley/grammar_io.h"
#include "gwb/earley/tokenize.h"
#include "shared_data.h"
#include "ui/earley/parse_session.h"

namespace gwb::ui::testing {

inline std::shared_ptr<const gwb::Grammar> loadSampleGrammar(
    const std::string& name = "pp-attachment.cfg") {
  gwb::GrammarLoad load = gwb::loadGrammarFile(gwb::testing::sourceDir() + "/samples/" + name);
  EXPECT_TRUE(load.ok()) << name;
  return std::make_shared<const gwb::Grammar>(std::move(load.grammar));
}

inline std::shared_ptr<const gwb::Grammar> grammarFromNltk(const std::string& text) {
  gwb::GrammarReadOptions options;
  options.format = gwb::GrammarFormat::Nltk;
  gwb::GrammarLoad load = gwb::readGrammar(text, "test.cfg", options);
  EXPECT_TRUE(load.ok());
  return std::make_shared<const gwb::Grammar>(std::move(load.grammar));
}

inline std::shared_ptr<const ParseSession> parseSentence(
    std::shared_ptr<const gwb::Grammar> grammar, const std::string& sentence, bool lookahead = true,
    gwb::NumericMode mode = gwb::NumericMode::Scaled) {
  ParseRequest request;
  request.grammar = std::move(grammar);
  request.words = gwb::tokenize(sentence);
  request.lookahead = lookahead;
  request.mode = mode;
  return ParseSession::run(request);
}

// Every operation of a session, in order (each state set made again from the trace).
inline std::vector<gwb::ParseEvent> allEvents(const ParseSession& session) {
  std::vector<gwb::ParseEvent> events;
  events.reserve(session.stepCount());
  for (std::size_t step = 0; step < session.stepCount(); ++step)
    events.push_back(session.trace().event(step));
  return events;
}

inline constexpr const char* kAmbiguous = "i saw the man with the telescope";

}  // namespace gwb::ui::testing
