#include "ui/grounded/topic_palette.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "gwb/grounded/social_corpus.h"

namespace gwb::ui {

namespace {

// Chosen for distance, not taste: a greedy farthest-point search over the sRGB cube (17-step
// grid, chroma C* >= 25 so no colour passes for grey) maximising the smallest CIEDE2000
// difference to each other and to white (missing label), the null topic's grey and black
// (boundary marks and text), then refined by swapping in the best candidate while the minimum
// grows. The first 20 are at least 21 apart (ΔE00; about 2 is "just noticeable"), all 32 at
// least 16.9 — tests/ui/discourse_view_test.cpp checks both. Most distinct first, as the most
// frequent topics take the first colours.
constexpr const char* kBaseColors[] = {
    "#dd00ff", "#dd0000", "#008800", "#0088dd", "#bb8800", "#55ff00", "#ff6699", "#771144",
    "#006666", "#664411", "#00aa99", "#003388", "#bbaaff", "#003300", "#ffee00", "#ff9977",
    "#00ccff", "#99aa77", "#bbffdd", "#776699", "#770000", "#220033", "#8800aa", "#ffcc88",
    "#3355ff", "#ffccee", "#cc2255", "#996655", "#777700", "#11cc77", "#dd6600", "#330000",
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

TopicPalette::TopicPalette(const std::vector<std::string>& topics,
                           const std::vector<std::vector<std::string>>& together) {
  const std::vector<QColor>& base = baseColors();
  const std::size_t colours = base.size();
  for (const std::string& topic : topics) {
    if (topic == gwb::kNullTopic) continue;
    if (std::find(topics_.begin(), topics_.end(), topic) != topics_.end()) continue;
    topics_.push_back(topic);
  }
  // Palette order first; topics past the list take hashed colours.
  const std::size_t n = std::min(topics_.size(), colours);
  std::vector<std::size_t> colourOf(n);
  for (std::size_t t = 0; t < n; ++t) colourOf[t] = t;

  // Pairs of coloured topics shown together.
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  {
    QHash<QString, std::size_t> index;
    for (std::size_t t = 0; t < n; ++t) index.insert(QString::fromStdString(topics_[t]), t);
    std::set<std::pair<std::size_t, std::size_t>> unique;
    for (const std::vector<std::string>& group : together) {
      std::vector<std::size_t> members;
      for (const std::string& topic : group) {
        const auto it = index.constFind(QString::fromStdString(topic));
        if (it != index.constEnd()) members.push_back(*it);
      }
      for (const std::size_t a : members)
        for (const std::size_t b : members)
          if (a < b) unique.emplace(a, b);
    }
    edges.assign(unique.begin(), unique.end());
  }
  if (!edges.empty()) {
    // Swap colours (with each other, and with unused ones) while it raises the smallest
    // difference between topics shown together, or keeps it and lowers how many pairs have it:
    // a deterministic hill climb from the palette order.
    std::vector<std::vector<double>> distance(colours, std::vector<double>(colours, 0.0));
    for (std::size_t i = 0; i < colours; ++i)
      for (std::size_t j = 0; j < colours; ++j)
        distance[i][j] = i == j ? 0.0 : colorDifference(base[i], base[j]);
    const auto score = [&](const std::vector<std::size_t>& assignment) {
      double least = std::numeric_limits<double>::infinity();
      int atLeast = 0;
      for (const auto& [a, b] : edges) {
        const double d = distance[assignment[a]][assignment[b]];
        if (d < least - 1e-9) {
          least = d;
          atLeast = 1;
        } else if (d < least + 1e-9) {
          ++atLeast;
        }
      }
      return std::make_pair(least, -atLeast);
    };
    std::vector<bool> used(colours, false);
    for (const std::size_t c : colourOf) used[c] = true;
    auto best = score(colourOf);
    for (int pass = 0; pass < 100; ++pass) {
      bool improved = false;
      for (std::size_t a = 0; a < n; ++a) {
        // With another topic's colour, or a colour nobody uses.
        for (std::size_t b = a + 1; b < n + colours; ++b) {
          std::vector<std::size_t> trial = colourOf;
          if (b < n) {
            std::swap(trial[a], trial[b]);
          } else if (!used[b - n]) {
            trial[a] = b - n;
          } else {
            continue;
          }
          const auto trialScore = score(trial);
          if (trialScore.first > best.first + 1e-9 ||
              (trialScore.first > best.first - 1e-9 && trialScore.second > best.second)) {
            if (b >= n) {
              used[colourOf[a]] = false;
              used[b - n] = true;
            }
            colourOf = std::move(trial);
            best = trialScore;
            improved = true;
          }
        }
      }
      if (!improved) break;
    }
  }
  for (std::size_t t = 0; t < topics_.size(); ++t) {
    colors_.insert(QString::fromStdString(topics_[t]),
                   t < n ? base[colourOf[t]] : hashedColor(topics_[t]));
  }
}

QColor TopicPalette::color(const std::string& topic) const {
  if (topic == gwb::kNullTopic) return nullTopicColor();
  const auto it = colors_.constFind(QString::fromStdString(topic));
  return it != colors_.constEnd() ? *it : hashedColor(topic);
}

TopicPalette::Lab TopicPalette::toLab(const QColor& color) {
  const auto linear = [](double u) {
    return u <= 0.04045 ? u / 12.92 : std::pow((u + 0.055) / 1.055, 2.4);
  };
  const double r = linear(color.redF());
  const double g = linear(color.greenF());
  const double b = linear(color.blueF());
  // sRGB → XYZ (D65), relative to the D65 white.
  const double x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
  const double z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883;
  const auto f = [](double t) {
    constexpr double kEpsilon = 216.0 / 24389.0;
    constexpr double kKappa = 24389.0 / 27.0;
    return t > kEpsilon ? std::cbrt(t) : (kKappa * t + 16.0) / 116.0;
  };
  const double fx = f(x);
  const double fy = f(y);
  const double fz = f(z);
  return {116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)};
}

double TopicPalette::ciede2000(const Lab& first, const Lab& second) {
  constexpr double kPi = 3.14159265358979323846;
  const auto radians = [](double degrees) { return degrees * kPi / 180.0; };
  const auto degrees = [](double angle) { return angle * 180.0 / kPi; };
  const auto pow7 = [](double v) { return std::pow(v, 7.0); };
  const double c1 = std::hypot(first.a, first.b);
  const double c2 = std::hypot(second.a, second.b);
  const double meanC = (c1 + c2) / 2.0;
  const double g = 0.5 * (1.0 - std::sqrt(pow7(meanC) / (pow7(meanC) + pow7(25.0))));
  const double a1 = (1.0 + g) * first.a;
  const double a2 = (1.0 + g) * second.a;
  const double c1p = std::hypot(a1, first.b);
  const double c2p = std::hypot(a2, second.b);
  const auto hue = [&](double b, double a) {
    if (a == 0.0 && b == 0.0) return 0.0;
    const double h = degrees(std::atan2(b, a));
    return h < 0.0 ? h + 360.0 : h;
  };
  const double h1 = hue(first.b, a1);
  const double h2 = hue(second.b, a2);
  const double deltaL = second.l - first.l;
  const double deltaC = c2p - c1p;
  double deltaH = 0.0;
  if (c1p * c2p != 0.0) {
    deltaH = h2 - h1;
    if (deltaH > 180.0) deltaH -= 360.0;
    if (deltaH < -180.0) deltaH += 360.0;
  }
  const double deltaBigH = 2.0 * std::sqrt(c1p * c2p) * std::sin(radians(deltaH / 2.0));
  const double meanL = (first.l + second.l) / 2.0;
  const double meanCp = (c1p + c2p) / 2.0;
  double meanH = h1 + h2;
  if (c1p * c2p != 0.0) {
    if (std::abs(h1 - h2) <= 180.0) {
      meanH = (h1 + h2) / 2.0;
    } else if (h1 + h2 < 360.0) {
      meanH = (h1 + h2 + 360.0) / 2.0;
    } else {
      meanH = (h1 + h2 - 360.0) / 2.0;
    }
  }
  const double t =
      1.0 - 0.17 * std::cos(radians(meanH - 30.0)) + 0.24 * std::cos(radians(2.0 * meanH)) +
      0.32 * std::cos(radians(3.0 * meanH + 6.0)) - 0.20 * std::cos(radians(4.0 * meanH - 63.0));
  const double deltaTheta = 30.0 * std::exp(-std::pow((meanH - 275.0) / 25.0, 2.0));
  const double rc = 2.0 * std::sqrt(pow7(meanCp) / (pow7(meanCp) + pow7(25.0)));
  const double sl =
      1.0 + 0.015 * std::pow(meanL - 50.0, 2.0) / std::sqrt(20.0 + std::pow(meanL - 50.0, 2.0));
  const double sc = 1.0 + 0.045 * meanCp;
  const double sh = 1.0 + 0.015 * meanCp * t;
  const double rt = -std::sin(radians(2.0 * deltaTheta)) * rc;
  const double l = deltaL / sl;
  const double c = deltaC / sc;
  const double h = deltaBigH / sh;
  return std::sqrt(l * l + c * c + h * h + rt * c * h);
}

double TopicPalette::colorDifference(const QColor& first, const QColor& second) {
  return ciede2000(toLab(first), toLab(second));
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
