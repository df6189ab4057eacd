// Includes QCustomPlot under the project's Qt strictness macros.
//
// QCustomPlot 2.1's header uses Qt's `foreach` in two read-only template loops, and the
// project builds with QT_NO_FOREACH (see cmake/GwbFlags.cmake), which removes that macro. For
// the length of the include only, `foreach` becomes an equivalent range-for over a const
// view; the macro is removed again afterwards, so our own code still cannot use it.
#pragma once

#include <utility>

#include <QtGlobal>

#if defined(QT_NO_FOREACH) && !defined(foreach)
// NOLINTNEXTLINE(cppcoreguidelines-macro-usage,readability-identifier-naming,bugprone-macro-parentheses):
// Qt's own name and form, for one include
#define foreach(variable, container) for (variable : std::as_const(container))
#define GWB_DEFINED_FOREACH_FOR_QCUSTOMPLOT
#endif

#include <qcustomplot.h>

#ifdef GWB_DEFINED_FOREACH_FOR_QCUSTOMPLOT
#undef foreach
#undef GWB_DEFINED_FOREACH_FOR_QCUSTOMPLOT
#endif
