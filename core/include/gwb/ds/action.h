// Dynamic Syntax actions: conditional, procedural tree updates in DyLan's IF/THEN/ELSE form.
//
//   IF    ?ty(e)                      conditions, checked at the pointed node (modal labels
//   THEN  put(ty(e))                    look elsewhere); all must hold
//         ttrput([x==john:e|head==x:e])
//   ELSE  abort
//
// Effects: make(\/0) (new daughter), go(/\1) (move the pointer), put(L) and delete(L) (add or
// remove a label at the pointer; a new ty or fo replaces the old one), ttrput(F) (put a formula
// whose record-type labels are first made fresh), freshput(S,entity), beta-reduce (type and
// formula of the pointed node from its two daughters), merge(Y) (merge the node Y leads to into
// the pointed one), conjoin(F) (conjoin F into the pointed node's formula), do_nothing, abort,
// and nested IF blocks. A lexical action may be a sequence of IF blocks, run in order; any
// abort aborts the whole action.
//
// Metavariables (X, Y, V...) are bound by the conditions: `?ty(X)` binds X to a type, `fo(X)` to
// a formula, `?X` to a label, `<Y>...` to the path to some node. Conditions are matched by a
// backtracking search in document order (nodes in address order, labels in label order); the
// THEN effects run with the first instantiation for which they succeed. The ELSE effects run
// only when no instantiation satisfies the conditions. An exhaustive action (`+name`) instead
// yields one result per instantiation whose THEN effects succeed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gwb/ds/ds_tree.h"
#include "gwb/ds/formula.h"
#include "gwb/ds/label.h"
#include "gwb/ds/node_address.h"

namespace gwb::ds {

enum class EffectKind {
  Make,
  Go,
  Put,
  Delete,
  TtrPut,
  FreshPut,
  BetaReduce,
  Merge,
  Conjoin,
  Do,
  DoNothing,
  Abort,
  IfThenElse,
};

struct IfThenElse;

struct Effect {
  EffectKind kind = EffectKind::DoNothing;
  Modality modality;                         // make, go, merge
  bool inverse = false;                      // go(Y-1): the inverse of the bound path
  LabelPtr label;                            // put, delete
  FormulaPtr formula;                        // ttrput, conjoin
  std::vector<std::string> args;             // freshput, do
  std::shared_ptr<const IfThenElse> branch;  // IfThenElse
  int line = 0;                              // 1-based source line (0 if unknown)

  std::string toString() const;  // one effect, as in the action files (nested IFs: several lines)
};

struct IfThenElse {
  std::vector<LabelPtr> conditions;
  std::vector<Effect> thenEffects;
  std::vector<Effect> elseEffects;
  int line = 0;

  // DyLan's layout: keywords in a column of their own, nested blocks indented.
  std::string toString(int indent = 0) const;
};

struct DsAction {
  std::string name;         // computational action name, or the word for a lexical action
  bool optional = true;     // false for non-optional actions (`*name`), applied to closure
  bool exhaustive = false;  // `+name`: one result per instantiation of its metavariables
  bool hypothesis = false;  // `hyp-...`: tree-building hypotheses for induction, not parsing
  std::vector<Effect> effects;
  std::string file;
  int line = 0;

  std::string toString() const;  // the effects, one IF block after another
};

// What running actions met besides their results.
struct ActionReport {
  // Some run failed because it would have stored a formula nested deeper than
  // kMaxBuiltFormulaDepth (formula.h): a put, ttrput, conjoin or beta-reduce whose result
  // nests once more with every word, say.
  bool formulaTooDeep = false;
};

// Runs `action` on `tree`: no result if it aborts, one for an ordinary action, one per
// successful instantiation for an exhaustive action. An effect that would store a formula
// deeper than kMaxBuiltFormulaDepth fails (as abort does) and sets report->formulaTooDeep.
std::vector<DsTree> applyAction(const DsAction& action, const DsTree& tree,
                                ActionReport* report = nullptr);

// Applies `actions` (the non-optional ones), the first that changes the tree first, again and
// again until none does (at most `limit` steps). The names applied are appended to *applied.
DsTree applyClosure(const std::vector<const DsAction*>& actions, DsTree tree,
                    std::vector<std::string>* applied = nullptr, int limit = 1000,
                    ActionReport* report = nullptr);

// Whether `condition` holds at the pointed node for some instantiation of its metavariables.
bool holds(const LabelPtr& condition, const DsTree& tree);

}  // namespace gwb::ds
