#include "ui/ds/ds_record_format.h"

#include <algorithm>
#include <vector>

namespace gwb::ui {

namespace {

using Lines = std::vector<std::string>;

// Display width in characters: UTF-8 continuation bytes take no column.
std::size_t columns(const std::string& s) {
  std::size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

std::string padded(const std::string& s, std::size_t width) {
  const std::size_t w = columns(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

Lines recordLines(const gwb::ds::RecordType& record) {
  if (record.empty()) return {"[]"};
  std::size_t labelWidth = 0;
  std::size_t middleWidth = 0;
  for (const gwb::ds::Field& f : record.fields()) {
    labelWidth = std::max(labelWidth, columns(f.label));
    if (f.dsType && f.value) middleWidth = std::max(middleWidth, columns("== " + f.value->text()));
  }
  Lines body;
  for (const gwb::ds::Field& f : record.fields()) {
    const std::string label = padded(f.label, labelWidth);
    if (f.dsType) {
      std::string line = label + " ";
      if (middleWidth > 0)
        line += padded(f.value ? "== " + f.value->text() : "", middleWidth) + " ";
      body.push_back(line + ": " + f.dsType->toString());
      continue;
    }
    const std::string prefix = label + " : ";
    if (f.value && f.value->isRecord()) {
      const Lines nested = recordLines(f.value->recordType());
      for (std::size_t i = 0; i < nested.size(); ++i)
        body.push_back((i == 0 ? prefix : std::string(columns(prefix), ' ')) + nested[i]);
    } else {
      body.push_back(prefix + (f.value ? f.value->text() : ""));
    }
  }
  Lines out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    // Trailing blanks of aligned columns are dropped, except where the closing bracket goes.
    std::string line = (i == 0 ? "[ " : "  ") + body[i];
    line.erase(line.find_last_not_of(' ') + 1);
    out.push_back(std::move(line));
  }
  out.back() += " ]";
  return out;
}

}  // namespace

std::string formatRecordType(const gwb::ds::RecordType& record) {
  std::string out;
  for (const std::string& line : recordLines(record)) out += line + "\n";
  return out;
}

std::string formatFormula(const gwb::ds::FormulaPtr& formula) {
  if (!formula) return {};
  if (formula->isRecord()) return formatRecordType(formula->recordType());
  return formula->text() + "\n";
}

}  // namespace gwb::ui
