// TopicPalette: one colour per topic, the same in every row, recording and view.
//
// Topics get colours from a fixed list of 32 colours chosen to be far apart in CIEDE2000 (the
// first 20 at least 21 ΔE00 from each other and from white, the null topic's grey and black; no
// greys, so none is confused with the null topic), in the
// order of the topic list the palette is built from — the discourse view passes the corpus's
// objects, most frequent gold topic first — so a topic keeps its colour for as long as the
// corpus is loaded. Topics past the list
// (or not in it, e.g. a label only an annotation file uses) take golden-angle hues derived from
// a hash of the name: stable across runs, though not guaranteed distinct. Given the sets of
// topics shown together (a recording's), colours are handed out to keep each set's apart. The null
// topic is always a light grey; a missing label ('?' in an annotation file) is drawn as white.
// Labels that hold several topics ("dog+pig", raw gold) are split by topicsOfLabel().
#pragma once

#include <string>
#include <vector>

#include <QColor>
#include <QHash>
#include <QString>

namespace gwb::ui {

class TopicPalette {
 public:
  TopicPalette() = default;
  // `topics` in the order they take colours; the null topic among them is ignored. `together`:
  // sets of topics shown side by side (each recording's topics). Colours are then swapped
  // between topics (and with unused colours) while that raises the smallest CIEDE2000
  // difference between two topics of one set, so a recording's topics differ as much as the
  // palette allows even when the corpus has more topics than the first 20 colours.
  explicit TopicPalette(const std::vector<std::string>& topics,
                        const std::vector<std::vector<std::string>>& together = {});

  QColor color(const std::string& topic) const;
  static QColor nullTopicColor();
  static QColor missingLabelColor();
  // The fixed colours (32), for tests and legends.
  static const std::vector<QColor>& baseColors();
  // CIE L*a*b* (D65) of an sRGB colour, and the CIEDE2000 colour difference (Sharma, Wu &
  // Dalal 2005): about 1 is just noticeable, above 20 clearly different colours.
  struct Lab {
    double l = 0.0;
    double a = 0.0;
    double b = 0.0;
  };
  static Lab toLab(const QColor& color);
  static double ciede2000(const Lab& first, const Lab& second);
  static double colorDifference(const QColor& first, const QColor& second);
  // "dog+pig" → {"dog", "pig"}; "None" → {"None"}.
  static std::vector<std::string> topicsOfLabel(const std::string& label);
  const std::vector<std::string>& topics() const { return topics_; }

 private:
  std::vector<std::string> topics_;
  QHash<QString, QColor> colors_;
};

}  // namespace gwb::ui
