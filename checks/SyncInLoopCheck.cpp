//===--- SyncInLoopCheck.cpp - device-sync-in-loop -----------------------===//

#include "SyncInLoopCheck.h"
#include "api/HostTensors.h"
#include "api/StepLoops.h"
#include "api/TorchApi.h"
#include "api/TrainingApi.h"
#include "flow/TranslationUnitAnalysis.h"
#include "plans/LiteralSizes.h"
#include "plans/PlanBuilder.h"
#include "plans/PlanRecorder.h"
#include "utils/AstHelpers.h"
#include "utils/Execution.h"
#include "utils/IterationNeeds.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/AST/StmtCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

SyncInLoopCheck::SyncInLoopCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      // Read as text: g++ does not bind OptionsView's get<bool>.
      ReportNecessary(llvm::StringRef(Options.get("ReportNecessary", "false"))
                          .equals_insensitive("true")) {}

void SyncInLoopCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ReportNecessary", ReportNecessary ? "true" : "false");
}

void SyncInLoopCheck::registerMatchers(MatchFinder *Finder) {
  auto Own = unless(isExpansionInSystemHeader());
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(
                            hasAnyName("item", "cpu", "to", "nonzero", "equal",
                                       "allclose", "is_nonzero"),
                            ofClass(api::tensorRecord()))),
                        Own)
          .bind("sync"),
      this);
  Finder->addMatcher(cxxOperatorCallExpr(hasOverloadedOperatorName("<<"),
                                         hasArgument(1, hasType(api::tensorType())),
                                         Own)
                         .bind("sync"),
                     this);
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName(
                   "::torch::cuda::synchronize", "::c10::cuda::device_synchronize",
                   "::cudaDeviceSynchronize", "::cudaStreamSynchronize",
                   "::at::nonzero", "::at::equal", "::at::allclose"))),
               Own)
          .bind("sync"),
      this);
}

void SyncInLoopCheck::onStartOfTranslationUnit() {
  flow::TranslationUnitAnalysis::reset();
}

void SyncInLoopCheck::onEndOfTranslationUnit() {
  if (!Pending.empty()) {
    // One finding per loop, in the order the loops were found.
    ASTContext &Ctx = *Analysed;
    std::vector<const Stmt *> Loops;
    for (const Found &F : Pending)
      if (!llvm::is_contained(Loops, F.Loop.Loop))
        Loops.push_back(F.Loop.Loop);
    for (const Stmt *Loop : Loops) {
      std::vector<Found> InLoop;
      llvm::copy_if(Pending, std::back_inserter(InLoop),
                    [&](const Found &F) { return F.Loop.Loop == Loop; });
      report(InLoop, Ctx);
    }
  }
  Origins.reset();
  Calls.reset();
  Pending.clear();
  Seen.clear();
  Analysed = nullptr;
}

/// Whether an iteration of \p Loop queues device work, in the loop or in
/// what it calls. A loop that queues none has drained the queue at its first
/// read: the others wait for nothing.
static bool queuesWork(const Stmt &Loop, ASTContext &Ctx) {
  auto NoWork = [](const Stmt &S, utils::CallChain) {
    const auto *Call = dyn_cast<CallExpr>(&S);
    return !Call || !api::queuesDeviceWork(*Call);
  };
  return llvm::any_of(Loop.children(), [&](const Stmt *Part) {
    return Part && utils::isRepeatedPart(Loop, *Part) &&
           !utils::forEachExecuted(*Part, Ctx, NoWork);
  });
}

/// Whether the dataflow knows \p Tensor is on the CPU each time it is read.
static bool knownOnTheCpu(const Expr &Tensor, ASTContext &Ctx) {
  const FunctionDecl *Fn = utils::enclosingFunction(Tensor, Ctx);
  return Fn && Fn->hasBody() &&
         flow::TranslationUnitAnalysis::of(Ctx).root(*Fn).deviceEveryTime(Tensor)
                 .Device == flow::Place::Cpu;
}

bool SyncInLoopCheck::readsNeededValue(const Expr &Sync,
                                       const utils::LoopContext &Loop,
                                       ASTContext &Ctx) {
  api::HostSync What = *api::hostSync(Sync);
  if (What.What == api::HostSync::Synchronize)
    return false;
  // A tensor printed goes where the stream goes; any other read is the
  // call's value.
  const Expr &Value = What.What == api::HostSync::Print ? *What.Tensor : Sync;
  utils::IterationNeeds Needs(*Loop.Loop, Ctx, api::hostValueUse);
  return Needs.needed(Value, Loop.Chain);
}

void SyncInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Sync = Result.Nodes.getNodeAs<Expr>("sync");
  ASTContext &Ctx = *Result.Context;
  std::optional<api::HostSync> What = api::hostSync(*Sync);
  if (!What || Sync->getBeginLoc().isMacroID() || api::isInLibTorch(*Sync, Ctx) ||
      Seen.contains(Sync->getExprLoc().getRawEncoding()) ||
      !flow::TranslationUnitAnalysis::of(Ctx).namesAccelerator())
    return;
  if (!Calls) {
    Calls = std::make_unique<utils::CallSites>(Ctx);
    Origins = std::make_unique<utils::ValueOrigins>(Ctx, *Calls);
  }
  Analysed = &Ctx;
  if (What->Tensor && (api::isOnTheCpu(*What->Tensor, *Origins) ||
                       knownOnTheCpu(*What->Tensor, Ctx)))
    return;
  for (const utils::LoopContext &Loop :
       utils::loopsRunning(*Sync, *Calls, Ctx)) {
    if (Loop.Runs != utils::Recurrence::Every || api::runsStepLoops(*Loop.Loop, Ctx) ||
        !queuesWork(*Loop.Loop, Ctx))
      continue;
    bool Necessary = readsNeededValue(*Sync, Loop, Ctx);
    if (Necessary && !ReportNecessary)
      return;
    Seen.insert(Sync->getExprLoc().getRawEncoding());
    Pending.push_back({Sync, Loop, Necessary});
    return;
  }
}

/// The loop with and without the sync on a GPU: its cost per iteration.
static std::optional<nlohmann::json> syncPlan(llvm::StringRef Check,
                                              const api::HostSync &Sync) {
  plans::PlanBuilder Plan;
  bool Prints = Sync.What == api::HostSync::Print;
  std::optional<std::vector<int64_t>> Sizes;
  if (Sync.Tensor)
    Sizes = plans::literalSizes(Sync.Tensor);
  std::string X = Plan.factory(
      {"accel", Prints ? std::vector<int64_t>{8}
                       : Sizes.value_or(std::vector<int64_t>{1024})});
  unsigned Work = Plan.lastStep() + 1;
  std::string Y = Plan.call("mul", {X, X});
  switch (Sync.What) {
  case api::HostSync::Item:
    Plan.sync("item", Plan.call("sum", {Y}));
    break;
  case api::HostSync::ToCpu:
    if (Sync.Name == "cpu")
      Plan.move(Y, "cpu", "", /*Keep=*/true);
    else
      Plan.move(Y, "to", "cpu", /*Keep=*/true);
    break;
  case api::HostSync::Synchronize:
    Plan.sync("synchronize", "");
    break;
  case api::HostSync::Print:
    Plan.sync("print", Y);
    break;
  case api::HostSync::Nonzero:
    Plan.sync("nonzero", Y);
    break;
  case api::HostSync::Compare:
    return std::nullopt;
  }
  Plan.expect({{"kind", "sync-cost"},
               {"step", Plan.lastStep()},
               {"work", Work},
               {"iterations", 100},
               {"min_micros", 1}});
  return Plan.finish(Check, "a loop of device work with and without the "
                            "synchronisation: its cost per iteration");
}

void SyncInLoopCheck::noteChain(const utils::LoopContext &Loop) {
  for (const CallExpr *Call : Loop.Chain) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    bool IsLambda = isa<CXXMethodDecl>(Callee) &&
                    cast<CXXMethodDecl>(Callee)->getParent()->isLambda();
    diag(Call->getExprLoc(), "%select{'%1'|the lambda}0 runs it, called on "
                             "every iteration of the loop",
         DiagnosticIDs::Note)
        << IsLambda << Callee->getNameAsString();
  }
}

void SyncInLoopCheck::report(llvm::ArrayRef<Found> InLoop, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Found> Ordered(InLoop.begin(), InLoop.end());
  // Where each runs in the iteration: at the sync, or at the call in the
  // loop that leads to it.
  auto placeInLoop = [](const Found &F) {
    return F.Loop.Chain.empty() ? F.Sync->getBeginLoc()
                                : F.Loop.Chain.front()->getBeginLoc();
  };
  llvm::stable_sort(Ordered, [&](const Found &A, const Found &B) {
    SourceLocation PlaceA = placeInLoop(A), PlaceB = placeInLoop(B);
    if (PlaceA != PlaceB)
      return SM.isBeforeInTranslationUnit(PlaceA, PlaceB);
    return SM.isBeforeInTranslationUnit(A.Sync->getExprLoc(),
                                        B.Sync->getExprLoc());
  });
  const Found &First = Ordered.front();
  api::HostSync What = *api::hostSync(*First.Sync);
  diag(First.Sync->getExprLoc(),
       "'%0' waits for the device on every iteration of this loop"
       "%select{|, and the iteration needs its value}1%select{|; %3 more "
       "synchronisation%s3 in this loop}2")
      << What.Name << First.Necessary << (Ordered.size() > 1)
      << static_cast<unsigned>(Ordered.size() - 1)
      << First.Sync->getSourceRange();
  noteChain(First.Loop);
  for (const Found &Other : llvm::drop_begin(Ordered)) {
    diag(Other.Sync->getExprLoc(),
         "'%0' waits for the device too%select{|, and the iteration needs its "
         "value}1",
         DiagnosticIDs::Note)
        << api::hostSync(*Other.Sync)->Name << Other.Necessary
        << Other.Sync->getSourceRange();
    noteChain(Other.Loop);
  }
  if (std::optional<nlohmann::json> Plan = syncPlan(getID(), What))
    plans::recordPlan(getID(), First.Sync->getExprLoc(), SM, std::move(*Plan));
  else
    plans::recordNotReplayable(getID(), First.Sync->getExprLoc(), SM);
}

} // namespace clang::tidy::torch_tidy
