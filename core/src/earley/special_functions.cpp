#include "gwb/earley/special_functions.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <math.h>  // lgamma_r

#include <boost/math/special_functions/digamma.hpp>

namespace gwb {

namespace {

// cc.mallet.util.Maths.logGamma, which is Tom Minka's port (libbow) of W. J. Cody's ALGAMA
// (netlib SPECFUN; Cody & Hillstrom 1967): minimax rational approximations of log Γ on
// (0, 1.5], (0.5, 4] and (4, 12], each a ratio of two degree-8 polynomials evaluated by
// Horner's rule, and above 12 Stirling's series
//   log Γ(x) = x (log x − 1) − ½ log x + ½ log 2π + (1/x) Σ_k c_k (1/x²)^k
// with seven coefficients. The constants are Cody's published ones.
constexpr double kCodyD1 = -5.772156649015328605195174e-1;
constexpr std::array<double, 8> kCodyP1 = {
    4.945235359296727046734888e0, 2.018112620856775083915565e2, 2.290838373831346393026739e3,
    1.131967205903380828685045e4, 2.855724635671635335736389e4, 3.848496228443793359990269e4,
    2.637748787624195437963534e4, 7.225813979700288197698961e3};
constexpr std::array<double, 8> kCodyQ1 = {
    6.748212550303777196073036e1, 1.113332393857199323513008e3, 7.738757056935398733233834e3,
    2.763987074403340708898585e4, 5.499310206226157329794414e4, 6.161122180066002127833352e4,
    3.635127591501940507276287e4, 8.785536302431013170870835e3};
constexpr double kCodyD2 = 4.227843350984671393993777e-1;
constexpr std::array<double, 8> kCodyP2 = {
    4.974607845568932035012064e0, 5.424138599891070494101986e2, 1.550693864978364947665077e4,
    1.847932904445632425417223e5, 1.088204769468828767498470e6, 3.338152967987029735917223e6,
    5.106661678927352456275255e6, 3.074109054850539556250927e6};
constexpr std::array<double, 8> kCodyQ2 = {
    1.830328399370592604055942e2, 7.765049321445005871323047e3, 1.331903827966074194402448e5,
    1.136705821321969608938755e6, 5.267964117437946917577538e6, 1.346701454311101692290052e7,
    1.782736530353274213975932e7, 9.533095591844353613395747e6};
constexpr double kCodyD4 = 1.791759469228055000094023e0;
constexpr std::array<double, 8> kCodyP4 = {
    1.474502166059939948905062e4,  2.426813369486704502836312e6,  1.214755574045093227939592e8,
    2.663432449630976949898078e9,  2.940378956634553899906876e10, 1.702665737765398868392998e11,
    4.926125793377430887588120e11, 5.606251856223951465078242e11};
constexpr std::array<double, 8> kCodyQ4 = {
    2.690530175870899333379843e3,  6.393885654300092398984238e5,  4.135599930241388052042842e7,
    1.120872109616147941376570e9,  1.488613728678813811542398e10, 1.016803586272438228077304e11,
    3.417476345507377132798597e11, 4.463158187419713286462081e11};
// Stirling's series, highest power first; the last entry starts the Horner recurrence.
constexpr std::array<double, 7> kCodyStirling = {
    -1.910444077728e-03,     8.4171387781295e-04,          -5.952379913043012e-04,
    7.93650793500350248e-04, -2.777777777777681622553e-03, 8.333333333333333331554247e-02,
    5.7083835261e-03};
constexpr double kCodySplit = 0.6796875;
constexpr double kHalfLogTwoPi = .9189385332046727417803297;

// x·(d + x·P(x)/Q(x)), P and Q by Horner's rule from `start` (Q's leading term).
double codyRational(double x, double d, const std::array<double, 8>& p,
                    const std::array<double, 8>& q, double start) {
  double numerator = 0;
  double denominator = start;
  for (std::size_t i = 0; i < p.size(); i++) {
    numerator = numerator * x + p[i];
    denominator = denominator * x + q[i];
  }
  return x * (d + x * (numerator / denominator));
}

// log Γ(a + c) − log Γ(a) for a ≥ 1e3 from Stirling's series, with the large terms cancelled
// analytically: (a + c − ½) log(a + c) − (a − ½) log a = (a − ½) log1p(c/a) + c log(a + c).
double stirlingLogGammaDifference(double a, double c) {
  const double b = a + c;
  const auto tail = [](double x) {
    const double x2 = x * x;
    return 1.0 / (12.0 * x) - 1.0 / (360.0 * x * x2) + 1.0 / (1260.0 * x * x2 * x2);
  };
  return (a - 0.5) * std::log1p(c / a) + c * std::log(b) - c + (tail(b) - tail(a));
}

// log Γ(x). std::lgamma also writes the sign to the global `signgam`, a data race when the
// M-step runs on several threads; POSIX's lgamma_r returns it instead (the same value).
double logGamma(double x) {
#if defined(__unix__) || defined(__APPLE__)  // POSIX systems: glibc, musl, the BSDs, macOS
  int sign = 0;
  return ::lgamma_r(x, &sign);
#else
  return std::lgamma(x);
#endif
}

}  // namespace

double earleyxDigamma(double x) {
  // MALLET's Dirichlet.digamma as Earleyx runs it: below 1e-6, −γ − 1/x; else the recurrence
  // ψ(x) = ψ(x + 1) − 1/x up to x ≥ 9.5, then log x − 1/(2x) (the remaining terms of its
  // asymptotic series are `1/12`-style integer divisions, i.e. 0). The boundary is taken at
  // 9.5 − 1e-9 so that a sum of counts that should be exactly 8.5 jumps the same way whatever
  // its rounding.
  constexpr double kEulerMascheroniNegated = -0.5772156649015328606065121;
  if (x < 1e-6) return kEulerMascheroniNegated - (1 / x);
  double psi = 0;
  while (x < 9.5 - 1e-9) {
    psi -= 1 / x;
    x++;
  }
  const double inverse = 1 / x;
  psi += std::log(x) - .5 * inverse;
  return psi;
}

double earleyxLogGamma(double x) {
  // Operation for operation as MALLET evaluates it (Java doubles, no fused multiply-add), so
  // that log Γ(1e10 + c) − log Γ(1e10) rounds as Earleyx's does.
  if (x <= 0.5 || (x > kCodySplit && x <= 1.5)) {
    double result = 0;
    if (x <= 0.5) {
      result = -std::log(x);
      if (x + 1 == 1) return result;  // x below the machine epsilon
    } else {
      x = (x - 0.5) - 0.5;
    }
    return result + codyRational(x, kCodyD1, kCodyP1, kCodyQ1, 1);
  }
  if (x <= kCodySplit || (x > 1.5 && x <= 4)) {
    double result = 0;
    if (x <= kCodySplit) {
      result = -std::log(x);
      x = (x - 0.5) - 0.5;
    } else {
      x -= 2;
    }
    return result + codyRational(x, kCodyD2, kCodyP2, kCodyQ2, 1);
  }
  if (x <= 12) {
    x -= 4;
    double numerator = 0;
    double denominator = -1;
    for (std::size_t i = 0; i < kCodyP4.size(); i++) {
      numerator = numerator * x + kCodyP4[i];
      denominator = denominator * x + kCodyQ4[i];
    }
    return kCodyD4 + x * (numerator / denominator);
  }
  const double logX = std::log(x);
  double result = x * (logX - 1) - logX * 0.5 + kHalfLogTwoPi;
  const double inverse = 1 / x;
  const double inverseSquared = inverse * inverse;
  double series = kCodyStirling[6];
  for (std::size_t i = 0; i < 6; i++) series = series * inverseSquared + kCodyStirling[i];
  series *= inverse;
  result += series;
  return result;
}

// Boost reports a domain error, pole or overflow by throwing; here it returns NaN or ±∞ instead,
// which the caller checks (induceGrammar fails the run with a message), so that no user value
// can make a special function end the program.
using NoThrowPolicy = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::ignore_error>,
    boost::math::policies::pole_error<boost::math::policies::ignore_error>,
    boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
    boost::math::policies::evaluation_error<boost::math::policies::ignore_error>>;

double digamma(double x, SpecialFunctions kind) {
  if (kind == SpecialFunctions::Earleyx) return earleyxDigamma(x);
  return boost::math::digamma(x, NoThrowPolicy());
}

double logGammaDifference(double a, double c, SpecialFunctions kind) {
  if (kind == SpecialFunctions::Earleyx) return earleyxLogGamma(a + c) - earleyxLogGamma(a);
  if (c == 0.0) return 0.0;
  if (a >= 1e3) return stirlingLogGammaDifference(a, c);
  return logGamma(a + c) - logGamma(a);
}

}  // namespace gwb
