#include "domain/ranking.h"

#include <algorithm>
#include <cmath>

namespace verdict {

namespace {

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

// A symmetric positive definite matrix, row by row.
using Matrix = std::vector<std::vector<double>>;

// Cholesky factor L (lower, L·Lᵀ = m) of a positive definite matrix. The prior makes the
// Hessian positive definite, so no pivot is ever zero or negative.
Matrix cholesky(const Matrix &m) {
  const auto n = m.size();
  Matrix l(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j <= i; ++j) {
      double sum = m[i][j];
      for (size_t k = 0; k < j; ++k)
        sum -= l[i][k] * l[j][k];
      l[i][j] = i == j ? std::sqrt(std::max(sum, 1e-12)) : sum / l[j][j];
    }
  return l;
}

// x with m·x = b, m given by its Cholesky factor.
std::vector<double> solve(const Matrix &l, std::vector<double> b) {
  const auto n = l.size();
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < i; ++k)
      b[i] -= l[i][k] * b[k];
    b[i] /= l[i][i];
  }
  for (size_t i = n; i-- > 0;) {
    for (size_t k = i + 1; k < n; ++k)
      b[i] -= l[k][i] * b[k];
    b[i] /= l[i][i];
  }
  return b;
}

// The Hessian of the negative log-likelihood at θ, and its gradient (the direction that raises
// the likelihood).
void curvature(size_t n, const std::vector<HeadToHead> &games, const std::vector<double> &theta,
               Matrix &hessian, std::vector<double> &gradient) {
  hessian.assign(n, std::vector<double>(n, 0.0));
  gradient.assign(n, 0.0);
  for (size_t i = 0; i < n; ++i) { // one win and one loss against an average tool
    const auto p = sigmoid(theta[i]);
    gradient[i] += 1.0 - 2.0 * p;
    hessian[i][i] += 2.0 * p * (1.0 - p);
  }
  for (const auto &game : games) {
    const auto total = static_cast<double>(game.a_picks + game.b_picks);
    if (total == 0 || game.a == game.b) continue;
    const auto p = sigmoid(theta[game.a] - theta[game.b]); // a picked over b
    const auto a_more = static_cast<double>(game.a_picks) - total * p;
    gradient[game.a] += a_more;
    gradient[game.b] -= a_more;
    const auto w = total * p * (1.0 - p);
    hessian[game.a][game.a] += w;
    hessian[game.b][game.b] += w;
    hessian[game.a][game.b] -= w;
    hessian[game.b][game.a] -= w;
  }
}

} // namespace

std::vector<Strength> bradley_terry(size_t tools, const std::vector<HeadToHead> &head_to_heads) {
  std::vector<HeadToHead> games;
  for (const auto &game : head_to_heads)
    if (game.a < tools && game.b < tools) games.push_back(game);
  std::vector<double> theta(tools, 0.0);
  Matrix hessian;
  std::vector<double> gradient;
  // Newton's method: the log-likelihood is concave, so a handful of steps reach the top; a step
  // is held to ±4 (a 98% chance) so a first step on lopsided counts cannot overshoot far.
  for (int step = 0; step < 100; ++step) {
    curvature(tools, games, theta, hessian, gradient);
    const auto move = solve(cholesky(hessian), gradient);
    double largest = 0;
    for (size_t i = 0; i < tools; ++i) {
      theta[i] += std::clamp(move[i], -4.0, 4.0);
      largest = std::max(largest, std::abs(move[i]));
    }
    if (largest < 1e-10) break;
  }
  curvature(tools, games, theta, hessian, gradient);
  const auto factor = cholesky(hessian);
  std::vector<Strength> strengths(tools);
  for (size_t i = 0; i < tools; ++i) {
    std::vector<double> unit(tools, 0.0);
    unit[i] = 1.0;
    const auto variance = solve(factor, unit)[i]; // the inverse Hessian's diagonal
    const auto spread = 1.959963984540054 * std::sqrt(variance);
    strengths[i].chance = sigmoid(theta[i]);
    strengths[i].low = sigmoid(theta[i] - spread);
    strengths[i].high = sigmoid(theta[i] + spread);
  }
  for (const auto &game : games) {
    strengths[game.a].picks += game.a_picks + game.b_picks;
    strengths[game.b].picks += game.a_picks + game.b_picks;
  }
  return strengths;
}

std::vector<int> tiers_of(const std::vector<Strength> &ranked) {
  std::vector<int> tiers(ranked.size(), 0);
  size_t head = 0;
  int tier = 1;
  for (size_t i = 0; i < ranked.size(); ++i) {
    if (ranked[i].high < ranked[head].low) {
      head = i;
      ++tier;
    }
    tiers[i] = tier;
  }
  return tiers;
}

} // namespace verdict
