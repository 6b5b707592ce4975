// start.json's multipliers matched to a changed relaxed NLP by the rows' keys (io::multiplier_keys,
// io::match_multipliers; docs/results.md "start.json").
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stasis/io/results.hpp"
#include "stasis/nlp/problem.hpp"
#include "stasis/sym/expr.hpp"

namespace {

using stasis::io::match_multipliers;
using stasis::io::MpccStart;
using stasis::io::multiplier_keys;

// Two instances of one kind whose rows are named as a problem file names its constraints (with
// their file positions), plus an unnamed row: a key per row, positions stripped, repeats numbered.
TEST(StartFile, MultiplierKeysNameEveryRowWithoutFilePositions) {
  stasis::nlp::Problem p;
  const auto x = p.add_variables("x", 2);
  stasis::nlp::BlockModel m;
  m.name = "path";
  m.variables = stasis::sym::symbols("x", 2);
  m.constraints = {m.variables[0], m.variables[1]};
  m.constraint_names = {"'x <= 1' (hopper.yaml:12:9)", "'x <= 1' (hopper.yaml:13:9)"};
  const int kind = p.add_block_kind(m);
  p.add_block(kind, {x, x + 1}, {}, {}, {}, "stage 1");
  p.add_block(kind, {x, x + 1}, {}, {}, {}, "stage 2");
  stasis::nlp::BlockModel u;
  u.name = "other";
  u.variables = stasis::sym::symbols("y", 1);
  u.constraints = {u.variables[0]};
  p.add_block(p.add_block_kind(u), {x});
  p.finalize();
  const std::vector<std::string> keys = multiplier_keys(p);
  const std::vector<std::string> expected = {
      "stage 1 (path): 'x <= 1'", "stage 1 (path): 'x <= 1' #2", "stage 2 (path): 'x <= 1'",
      "stage 2 (path): 'x <= 1' #2", "other (other): row 0"};
  EXPECT_EQ(keys, expected);
}

MpccStart start_with_rows(const std::vector<std::string>& keys, const std::vector<double>& lambda) {
  MpccStart s;
  s.w = {0.0, 0.0};
  s.multipliers = stasis::nlp::Multipliers{lambda, {1.0, 2.0}, {3.0, 4.0}};
  s.constraint_keys = keys;
  return s;
}

TEST(StartFile, MatchMultipliersPlacesRowsByKey) {
  const MpccStart s = start_with_rows({"a", "b", "c"}, {10.0, 20.0, 30.0});
  // The same rows: as they are.
  auto same = match_multipliers(s, {"a", "b", "c"}, 2);
  ASSERT_TRUE(same);
  EXPECT_FALSE(same->by_key);
  EXPECT_EQ(same->matched, 3u);
  EXPECT_EQ(same->multipliers.lambda_g, (std::vector<double>{10.0, 20.0, 30.0}));
  // A row added in the middle and one removed: the others keep theirs, the new one starts at 0;
  // the bound multipliers (same variables) are kept.
  auto changed = match_multipliers(s, {"a", "new", "c"}, 2);
  ASSERT_TRUE(changed);
  EXPECT_TRUE(changed->by_key);
  EXPECT_EQ(changed->matched, 2u);
  EXPECT_EQ(changed->rows, 3u);
  EXPECT_EQ(changed->multipliers.lambda_g, (std::vector<double>{10.0, 0.0, 30.0}));
  EXPECT_EQ(changed->multipliers.z_lower, (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(changed->multipliers.z_upper, (std::vector<double>{3.0, 4.0}));
  // Another number of variables, no row in common, or no keys and other rows: not usable.
  EXPECT_FALSE(match_multipliers(s, {"a", "b", "c"}, 3));
  EXPECT_FALSE(match_multipliers(s, {"x", "y"}, 2));
  MpccStart old = s;
  old.constraint_keys.clear();
  EXPECT_FALSE(match_multipliers(old, {"a", "b"}, 2));
  auto old_same = match_multipliers(old, {"p", "q", "r"}, 2);  // no keys, same number: as they are
  ASSERT_TRUE(old_same);
  EXPECT_FALSE(old_same->by_key);
  MpccStart none;
  none.w = {0.0, 0.0};
  EXPECT_FALSE(match_multipliers(none, {"a"}, 2));
}

}  // namespace
