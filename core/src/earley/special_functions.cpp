#include "gwb/earley/special_functions.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <math.h>  // lgamma_r

#include <boost/math/special_functions/digamma.hpp>

namespace gwb {

namespace {

// cc.mallet.util.Maths.logGamma: Lanczos (g = 607/128, 15 terms, Godfrey's coefficients), in
// the same order of operations.
constexpr std::array<double, 15> kLanczos = {
    0.99999999999999709182,     57.156235665862923517,      -59.597960355475491248,
    14.136097974741747174,      -0.49191381609762019978,    0.33994649984811888699e-4,
    0.46523628927048575665e-4,  -0.98374475304879564677e-4, 0.15808870322491248884e-3,
    -0.21026444172410488319e-3, 0.21743961811521264320e-3,  -0.16431810653676389022e-3,
    0.84418223983852743293e-4,  -0.26190838401581408670e-4, 0.36899182659531622704e-5,
};

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
  const double g = 607.0 / 128.0;
  const double tmp = x + g + .5;
  double sum = kLanczos[0];
  for (std::size_t i = 1; i < kLanczos.size(); i++) {
    sum = sum + (kLanczos.at(i) / (x + static_cast<double>(i)));
  }
  constexpr double kPi = 3.141592653589793;  // Java's Math.PI
  const double log2Pi = std::log(2 * kPi);
  return ((x + .5) * std::log(tmp)) - tmp + (.5 * log2Pi) + std::log(sum) - std::log(x);
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
