// The special functions of Variational Bayes (induction.h): the digamma function ψ and
// differences of log Γ, evaluated exactly (Boost.Math, lgamma_r, Stirling's series for large
// arguments) or as Earleyx evaluates them (MALLET's truncated digamma and its log Γ, Cody's
// ALGAMA, whose errors reproduce Earleyx's traces; see induction.h, "Earleyx compatibility").
// No function throws: a domain error gives NaN or ±∞, which the caller checks.
#pragma once

namespace gwb {

// How ψ and log Γ are evaluated in the VB update and the free energy.
enum class SpecialFunctions {
  Exact,    // Boost.Math digamma, std::lgamma (with a cancellation-free log Γ(a+c) − log Γ(a))
  Earleyx,  // MALLET's truncated digamma and Cody's log Γ, as Earleyx (see induction.h)
};

// ψ and log Γ as the options choose; earleyxDigamma / earleyxLogGamma are MALLET's.
double digamma(double x, SpecialFunctions kind);
double earleyxDigamma(double x);
double earleyxLogGamma(double x);
// log Γ(a + c) − log Γ(a) without the cancellation of two huge log Γ values (a = 1e10 priors).
double logGammaDifference(double a, double c, SpecialFunctions kind);

}  // namespace gwb
