#include "gwb/grounded/topic_transitions.h"

#include <algorithm>
#include <ostream>
#include <string_view>
#include <unordered_map>

#include "gwb/earley/grammar_io.h"

namespace gwb {

namespace {

constexpr std::string_view kDiscourse = "Discourse";
constexpr std::string_view kDiscoursePrefix = "Discourse.";
constexpr std::string_view kSentencePrefix = "Sentence.";

// "Discourse.car" → "car"; nullopt for other names.
std::optional<std::string> suffixAfter(const std::string& name, std::string_view prefix) {
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0)
    return std::nullopt;
  return name.substr(prefix.size());
}

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::optional<std::size_t> TopicTransitions::indexOf(const std::string& topic) const {
  const auto it = std::find(topics.begin(), topics.end(), topic);
  if (it == topics.end()) return std::nullopt;
  return static_cast<std::size_t>(it - topics.begin());
}

Eigen::MatrixXd TopicTransitions::stochastic() const {
  Eigen::MatrixXd p = transition;
  for (Eigen::Index r = 0; r < p.rows(); ++r) {
    const double sum = p.row(r).sum();
    if (sum > 0.0) p.row(r) /= sum;
  }
  return p;
}

namespace {

// π from least squares on [Pᵀ − I; 1ᵀ] π = [0; 1], clipped at 0 and normalised.
Eigen::VectorXd leastSquaresStationary(const Eigen::MatrixXd& p) {
  const Eigen::Index n = p.rows();
  if (n == 0) return {};
  Eigen::MatrixXd a(n + 1, n);
  a.topRows(n) = p.transpose() - Eigen::MatrixXd::Identity(n, n);
  a.row(n).setOnes();
  Eigen::VectorXd b = Eigen::VectorXd::Zero(n + 1);
  b(n) = 1.0;
  Eigen::VectorXd pi = a.colPivHouseholderQr().solve(b);
  for (Eigen::Index i = 0; i < n; ++i) pi(i) = std::max(pi(i), 0.0);  // rounding noise
  const double sum = pi.sum();
  if (sum > 0.0) pi /= sum;
  return pi;
}

// The closed classes of the chain with positive entries of `p` as edges: strongly connected
// components no edge leaves (a dense transitive closure; topic counts are small).
std::vector<std::vector<Eigen::Index>> closedClasses(const Eigen::MatrixXd& p) {
  const Eigen::Index n = p.rows();
  std::vector<std::vector<bool>> reach(static_cast<std::size_t>(n),
                                       std::vector<bool>(static_cast<std::size_t>(n), false));
  const auto at = [&](Eigen::Index i, Eigen::Index j) {
    return reach[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
  };
  for (Eigen::Index i = 0; i < n; ++i) {
    reach[static_cast<std::size_t>(i)][static_cast<std::size_t>(i)] = true;
    for (Eigen::Index j = 0; j < n; ++j)
      if (p(i, j) > 0.0) reach[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = true;
  }
  for (Eigen::Index k = 0; k < n; ++k)
    for (Eigen::Index i = 0; i < n; ++i)
      if (at(i, k))
        for (Eigen::Index j = 0; j < n; ++j)
          if (at(k, j)) reach[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = true;
  // i is in a closed class when everything it reaches reaches it back.
  std::vector<std::vector<Eigen::Index>> classes;
  std::vector<bool> assigned(static_cast<std::size_t>(n), false);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (assigned[static_cast<std::size_t>(i)]) continue;
    bool closed = true;
    for (Eigen::Index j = 0; j < n && closed; ++j) closed = !at(i, j) || at(j, i);
    if (!closed) continue;
    std::vector<Eigen::Index> members;
    for (Eigen::Index j = 0; j < n; ++j) {
      if (at(i, j)) {
        members.push_back(j);
        assigned[static_cast<std::size_t>(j)] = true;
      }
    }
    classes.push_back(std::move(members));
  }
  return classes;
}

std::string topicList(const std::vector<std::string>& topics,
                      const std::vector<Eigen::Index>& which) {
  std::string out;
  for (std::size_t k = 0; k < which.size() && k < 5; ++k)
    out += (k ? ", " : "") + topics[static_cast<std::size_t>(which[k])];
  if (which.size() > 5) out += ", ...";
  return out;
}

}  // namespace

const char* stationaryStatusName(StationaryDistribution::Status status) {
  switch (status) {
    case StationaryDistribution::Status::Unique: return "unique";
    case StationaryDistribution::Status::NotUnique: return "not unique";
    case StationaryDistribution::Status::Undefined: return "undefined";
  }
  return "undefined";
}

StationaryDistribution TopicTransitions::stationaryDistribution() const {
  StationaryDistribution result;
  const Eigen::MatrixXd p = stochastic();
  const Eigen::Index n = p.rows();
  if (n == 0) {
    result.explanation = "there are no topics";
    return result;
  }
  std::vector<Eigen::Index> stuck;  // topics with no transition
  for (Eigen::Index r = 0; r < n; ++r)
    if (!(p.row(r).sum() > 0.0)) stuck.push_back(r);
  if (!stuck.empty()) {
    result.explanation =
        std::to_string(stuck.size()) + " of " + std::to_string(n) + " topic(s) (" +
        topicList(topics, stuck) +
        ") have no transition to any topic, so the chain given that the discourse goes on is "
        "not defined there";
    return result;
  }
  result.pi = leastSquaresStationary(p);
  const std::vector<std::vector<Eigen::Index>> classes = closedClasses(p);
  if (classes.size() > 1) {
    std::vector<Eigen::Index> firsts;
    std::size_t absorbing = 0;
    for (const auto& members : classes) {
      firsts.push_back(members.front());
      absorbing += members.size() == 1 ? 1 : 0;
    }
    result.status = StationaryDistribution::Status::NotUnique;
    result.explanation = "the chain has " + std::to_string(classes.size()) +
                         " closed classes of topics (" + std::to_string(absorbing) +
                         " absorbing; e.g. " + topicList(topics, firsts) +
                         "), so every mix of their stationary distributions is stationary";
    return result;
  }
  result.status = StationaryDistribution::Status::Unique;
  return result;
}

Eigen::VectorXd TopicTransitions::stationary() const { return stationaryDistribution().pi; }

Occupancy TopicTransitions::occupancyDistribution() const {
  Occupancy result;
  const Eigen::Index n = transition.rows();
  if (n == 0) return result;
  Eigen::MatrixXd q = transition;
  for (Eigen::Index r = 0; r < n; ++r) {
    const double sum = q.row(r).sum() + ending(r);
    if (sum > 0.0) q.row(r) /= sum;
  }
  Eigen::VectorXd start = initial;
  if (!(start.sum() > 0.0)) start.setOnes();
  start /= start.sum();
  const Eigen::MatrixXd a = (Eigen::MatrixXd::Identity(n, n) - q).transpose();
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(a);
  if (lu.isInvertible()) {
    Eigen::VectorXd v = lu.solve(start);
    for (Eigen::Index i = 0; i < n; ++i) v(i) = std::max(v(i), 0.0);
    const double sum = v.sum();
    if (sum > 0.0) {
      result.share = v / sum;
      return result;
    }
  }
  // No discourse ends: the long-run share is the stationary distribution's, if it has one.
  const StationaryDistribution stationary = stationaryDistribution();
  result.fromEndings = false;
  result.stationaryStatus = stationary.status;
  result.explanation = "no topic can end a discourse, so the stationary distribution (" +
                       std::string(stationaryStatusName(stationary.status)) +
                       ") stands in for the occupancy";
  if (!stationary.explanation.empty()) result.explanation += ": " + stationary.explanation;
  result.share = stationary.status == StationaryDistribution::Status::Undefined
                     ? Eigen::VectorXd::Zero(n)
                     : stationary.pi;
  return result;
}

std::optional<TopicTransitions> topicTransitions(const Grammar& grammar, std::string* error) {
  const SymbolTable& symbols = grammar.symbols();
  TopicTransitions t;
  std::unordered_map<std::string, std::size_t> index;
  const auto topicIndex = [&](const std::string& topic) {
    const auto [it, inserted] = index.emplace(topic, t.topics.size());
    if (inserted) t.topics.push_back(topic);
    return it->second;
  };
  struct Entry {
    std::size_t from;
    std::size_t to;  // unused for endings
    bool ending;
    double probability;
  };
  std::vector<Entry> entries;
  std::vector<std::pair<std::size_t, double>> initials;
  for (const Rule& rule : grammar.rules()) {
    const std::string& lhs = symbols.name(rule.lhs);
    if (symbols.isTerminal(rule.lhs)) continue;
    if (lhs == kDiscourse && rule.rhs.size() == 1 && symbols.isNonterminal(rule.rhs[0])) {
      if (auto topic = suffixAfter(symbols.name(rule.rhs[0]), kDiscoursePrefix))
        initials.emplace_back(topicIndex(*topic), rule.probability);
      continue;
    }
    const auto from = suffixAfter(lhs, kDiscoursePrefix);
    if (!from || rule.rhs.empty() || rule.rhs.size() > 2) continue;
    if (!symbols.isNonterminal(rule.rhs[0]) ||
        suffixAfter(symbols.name(rule.rhs[0]), kSentencePrefix) != from)
      continue;
    const std::size_t f = topicIndex(*from);
    if (rule.rhs.size() == 1) {
      entries.push_back(Entry{f, 0, true, rule.probability});
      continue;
    }
    if (!symbols.isNonterminal(rule.rhs[1])) continue;
    const auto to = suffixAfter(symbols.name(rule.rhs[1]), kDiscoursePrefix);
    if (!to) continue;
    entries.push_back(Entry{f, topicIndex(*to), false, rule.probability});
  }
  const bool anyTransition =
      std::any_of(entries.begin(), entries.end(), [](const Entry& e) { return !e.ending; });
  if (!anyTransition) {
    if (error) *error = "no transition rules Discourse.t -> Sentence.t Discourse.t' in the grammar";
    return std::nullopt;
  }
  const auto n = static_cast<Eigen::Index>(t.topics.size());
  t.transition = Eigen::MatrixXd::Zero(n, n);
  t.ending = Eigen::VectorXd::Zero(n);
  t.initial = Eigen::VectorXd::Zero(n);
  for (const Entry& e : entries) {
    if (e.ending) {
      t.ending(static_cast<Eigen::Index>(e.from)) = e.probability;
    } else {
      t.transition(static_cast<Eigen::Index>(e.from), static_cast<Eigen::Index>(e.to)) =
          e.probability;
    }
  }
  for (const auto& [i, p] : initials) t.initial(static_cast<Eigen::Index>(i)) = p;
  return t;
}

std::vector<TopicTransition> topTransitions(const TopicTransitions& transitions,
                                            const Eigen::MatrixXd& matrix, std::size_t count) {
  std::vector<TopicTransition> all;
  for (Eigen::Index r = 0; r < matrix.rows(); ++r) {
    for (Eigen::Index c = 0; c < matrix.cols(); ++c) {
      all.push_back(TopicTransition{transitions.topics[static_cast<std::size_t>(r)],
                                    transitions.topics[static_cast<std::size_t>(c)], matrix(r, c)});
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const TopicTransition& a, const TopicTransition& b) {
    return a.probability > b.probability;
  });
  if (all.size() > count) all.resize(count);
  return all;
}

std::vector<TopicTransition> topTransitionsPerTopic(const TopicTransitions& transitions,
                                                    const Eigen::MatrixXd& matrix,
                                                    std::size_t count) {
  std::vector<TopicTransition> out;
  for (Eigen::Index r = 0; r < matrix.rows(); ++r) {
    std::vector<TopicTransition> row;
    for (Eigen::Index c = 0; c < matrix.cols(); ++c) {
      row.push_back(TopicTransition{transitions.topics[static_cast<std::size_t>(r)],
                                    transitions.topics[static_cast<std::size_t>(c)], matrix(r, c)});
    }
    std::stable_sort(row.begin(), row.end(),
                     [](const TopicTransition& a, const TopicTransition& b) {
                       return a.probability > b.probability;
                     });
    if (row.size() > count) row.resize(count);
    out.insert(out.end(), row.begin(), row.end());
  }
  return out;
}

void writeTopicMatrixCsv(const std::vector<std::string>& topics, const Eigen::MatrixXd& matrix,
                         const Eigen::VectorXd& ending, std::ostream& out) {
  out << "from";
  for (const std::string& t : topics) out << ',' << csvField(t);
  out << ",end\n";
  for (Eigen::Index r = 0; r < matrix.rows(); ++r) {
    out << csvField(topics[static_cast<std::size_t>(r)]);
    for (Eigen::Index c = 0; c < matrix.cols(); ++c) out << ',' << formatProbability(matrix(r, c));
    out << ',' << formatProbability(ending(r)) << '\n';
  }
}

void writeTransitionsCsv(const TopicTransitions& transitions, std::ostream& out) {
  writeTopicMatrixCsv(transitions.topics, transitions.transition, transitions.ending, out);
}

}  // namespace gwb
