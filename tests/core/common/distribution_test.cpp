#include "gwb/common/distribution.h"

#include <cmath>
#include <numeric>

#include <gtest/gtest.h>

namespace gwb {
namespace {

std::size_t rangeCost(const std::vector<std::size_t>& costs, std::size_t begin, std::size_t end) {
  return std::accumulate(costs.begin() + static_cast<std::ptrdiff_t>(begin),
                         costs.begin() + static_cast<std::ptrdiff_t>(end), std::size_t{0});
}

TEST(BalancedRanges, CoverEveryItemOnceInOrder) {
  const std::vector<std::size_t> costs = {5, 1, 1, 1, 9, 2, 2, 2, 3, 4, 1};
  for (int parts = 1; parts <= 14; ++parts) {
    const std::vector<std::size_t> bounds = balancedRanges(costs, parts);
    ASSERT_EQ(bounds.size(), static_cast<std::size_t>(parts) + 1);
    EXPECT_EQ(bounds.front(), 0u);
    EXPECT_EQ(bounds.back(), costs.size());
    for (std::size_t p = 0; p + 1 < bounds.size(); ++p) EXPECT_LE(bounds[p], bounds[p + 1]);
  }
}

TEST(BalancedRanges, EqualCostsSplitEvenly) {
  const std::vector<std::size_t> costs(12, 3);
  EXPECT_EQ(balancedRanges(costs, 3), (std::vector<std::size_t>{0, 4, 8, 12}));
  EXPECT_EQ(balancedRanges(costs, 4), (std::vector<std::size_t>{0, 3, 6, 9, 12}));
}

TEST(BalancedRanges, NoPartFarAboveItsShare) {
  // Each part's cost is within one item's cost of the ideal share.
  const std::vector<std::size_t> costs = {8, 3, 7, 1, 1, 6, 2, 9, 4, 4, 5, 3, 2, 8};
  const std::size_t total = rangeCost(costs, 0, costs.size());
  for (int parts = 2; parts <= 5; ++parts) {
    const std::vector<std::size_t> bounds = balancedRanges(costs, parts);
    for (std::size_t p = 0; p + 1 < bounds.size(); ++p) {
      const double share = static_cast<double>(total) / parts;
      EXPECT_LE(static_cast<double>(rangeCost(costs, bounds[p], bounds[p + 1])), share + 9.0)
          << "part " << p << " of " << parts;
    }
  }
}

TEST(BalancedRanges, MorePartsThanItemsLeavesSomeEmpty) {
  EXPECT_EQ(balancedRanges({4, 4}, 4).back(), 2u);
  EXPECT_EQ(balancedRanges({}, 3), (std::vector<std::size_t>{0, 0, 0, 0}));
}

TEST(ByteMessages, RoundTripNumbersStringsAndVectors) {
  ByteWriter writer;
  writer.put<std::int64_t>(-7);
  writer.putString("two words");
  writer.putDoubles({0.1, -0.0, 1e300});
  writer.put<double>(0.30000000000000004);
  const std::string bytes = writer.bytes();
  ByteReader reader(bytes);
  EXPECT_EQ(reader.get<std::int64_t>(), -7);
  EXPECT_EQ(reader.getString(), "two words");
  const std::vector<double> values = reader.getDoubles();
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0], 0.1);
  EXPECT_TRUE(std::signbit(values[1]));
  EXPECT_EQ(values[2], 1e300);
  EXPECT_EQ(reader.get<double>(), 0.30000000000000004);
  EXPECT_TRUE(reader.atEnd());
}

TEST(ByteMessages, AShortMessageIsAnErrorNotAnOverread) {
  ByteWriter writer;
  writer.putString("abc");
  std::string bytes = writer.bytes();
  bytes.pop_back();
  ByteReader reader(bytes);
  EXPECT_THROW(reader.getString(), std::runtime_error);
}

TEST(SingleProcess, IsOneRankWhoseCollectivesCopy) {
  Distribution& one = singleProcess();
  EXPECT_EQ(one.rank(), 0);
  EXPECT_EQ(one.size(), 1);
  EXPECT_TRUE(one.leader());
  EXPECT_EQ(one.gather("x"), std::vector<std::string>{"x"});
  std::string bytes = "y";
  one.broadcast(bytes);
  EXPECT_EQ(bytes, "y");
  EXPECT_FALSE(one.allTrue(false));
  EXPECT_TRUE(one.allTrue(true));
}

}  // namespace
}  // namespace gwb
