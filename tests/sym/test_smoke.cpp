// Smoke tests of sym: folding, hash-consing, derivatives and compiled evaluation on small cases
// whose values are known in closed form.
#include <gtest/gtest.h>

#include <cmath>

#include "stasis/sym.hpp"

using namespace stasis::sym;

TEST(SymSmoke, HashConsingSharesStructurallyEqualNodes) {
  Expr x = Expr::symbol("x"), y = Expr::symbol("y");
  EXPECT_TRUE(is_same(x * y + sin(x), sin(x) + y * x));
  EXPECT_TRUE((x - x).is_zero());
  EXPECT_TRUE((x * 0.0).is_zero());
  EXPECT_DOUBLE_EQ((Expr(2.0) * 3.0 + 1.0).constant_value(), 7.0);
}

TEST(SymSmoke, GradientAndHessianOfRosenbrock) {
  Expr x = Expr::symbol("x"), y = Expr::symbol("y");
  Expr f = sq(1.0 - x) + 100.0 * sq(y - sq(x));
  Vector g = gradient(f, {x, y});
  // df/dx = -2(1-x) - 400x(y-x^2), df/dy = 200(y-x^2); at (0.5, 2): -1 - 350 = -351, 350
  EXPECT_NEAR(evaluate(g[0], {x, y}, {0.5, 2.0}), -351.0, 1e-12);
  EXPECT_NEAR(evaluate(g[1], {x, y}, {0.5, 2.0}), 350.0, 1e-12);
  SparseMatrix H = hessian_lower(f, {x, y});
  ASSERT_EQ(H.nnz(), 3u);  // (0,0), (1,0), (1,1)
  Function F("rosen", {{x, y}}, {{f}, g, H.values});
  auto r = F({{0.5, 2.0}});
  EXPECT_NEAR(r[0][0], 0.25 + 100 * 1.75 * 1.75, 1e-12);
  EXPECT_NEAR(r[2][0], 2 - 400 * (2.0 - 3 * 0.25), 1e-12);  // d2f/dx2 = 2 - 400(y - 3x^2)
  EXPECT_NEAR(r[2][1], -400 * 0.5, 1e-12);
  EXPECT_NEAR(r[2][2], 200.0, 1e-12);
}

TEST(SymSmoke, CompiledMatchesDirectEvaluation) {
  Expr x = Expr::symbol("x"), y = Expr::symbol("y");
  Vector out = {x / 3.0, 3.0 / x, 2.0 - y, y - 2.0, atan2(y, x), fmin(x, y), if_else(x < y, x * y, x + y),
                pow(x, y), pow(x, 2.5), abs(-x) * sign(y)};
  Function F("f", {{x, y}}, {out});
  auto r = F({{1.3, 2.1}});
  for (std::size_t i = 0; i < out.size(); ++i)
    EXPECT_DOUBLE_EQ(r[0][i], evaluate(out[i], {x, y}, {1.3, 2.1})) << out[i].str();
}
