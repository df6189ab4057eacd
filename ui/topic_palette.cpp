#include "ui/topic_palette.h"

#include <cmath>

#include "gwb/social_corpus.h"

namespace gwb::ui {

namespace {

// Sasha Trubetskoy's "20 simple, distinct colours" (without the greys, white, black and
// beige), most distinct first, then d3's category10 and a few of category20b.
constexpr const char* kBaseColors[] = {
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
    "#ffe119", "#469990", "#9a6324", "#800000", "#000075", "#808000", "#fabed4", "#dcbeff",
    "#aaffc3", "#ffd8b1", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#bcbd22", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173",
};

QColor hashedColor(const std::string& topic) {
  // FNV-1a, then the golden angle: stable across runs and platforms.
  std::uint32_t hash = 2166136261u;
  for (const char c : topic) {
    hash ^= static_cast<std::uint8_t>(c);
    hash *= 16777619u;
  }
  const double hue = std::fmod(static_cast<double>(hash % 360u) * 137.50776405, 360.0);
  return QColor::fromHsv(static_cast<int>(hue), 150, 220);
}

}  // namespace

const std::vector<QColor>& TopicPalette::baseColors() {
  static const std::vector<QColor> colors = [] {
    std::vector<QColor> out;
    for (const char* name : kBaseColors) out.emplace_back(QString::fromLatin1(name));
    return out;
  }();
  return colors;
}

TopicPalette::TopicPalette(const std::vector<std::string>& topics) {
  const std::vector<QColor>& base = baseColors();
  std::size_t next = 0;
  for (const std::string& topic : topics) {
    if (topic == gwb::kNullTopic) continue;
    const QString key = QString::fromStdString(topic);
    if (colors_.contains(key)) continue;
    topics_.push_back(topic);
    colors_.insert(key, next < base.size() ? base[next] : hashedColor(topic));
    ++next;
  }
}

QColor TopicPalette::color(const std::string& topic) const {
  if (topic == gwb::kNullTopic) return nullTopicColor();
  const auto it = colors_.constFind(QString::fromStdString(topic));
  return it != colors_.constEnd() ? *it : hashedColor(topic);
}

QColor TopicPalette::nullTopicColor() { return {0xdd, 0xdd, 0xdd}; }
QColor TopicPalette::missingLabelColor() { return {0xff, 0xff, 0xff}; }

std::vector<std::string> TopicPalette::topicsOfLabel(const std::string& label) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t plus = label.find('+', start);
    parts.push_back(
        label.substr(start, plus == std::string::npos ? std::string::npos : plus - start));
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
  return parts;
}

}  // namespace gwb::ui
