//===--- RankUnawareDeviceCheck.cpp - device-rank-unaware -----------------===//

#include "RankUnawareDeviceCheck.h"
#include "api/DistributedApi.h"
#include "api/TorchApi.h"
#include "plans/PlanRecorder.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

namespace {
AST_MATCHER(NamedDecl, processGroupApi) {
  return api::isProcessGroupApi(&Node);
}
AST_MATCHER(NamedDecl, setsCurrentDevice) {
  return api::setsCurrentDevice(&Node);
}
AST_MATCHER(NamedDecl, setsEnvironment) { return api::setsEnvironment(&Node); }
} // namespace

void RankUnawareDeviceCheck::registerMatchers(MatchFinder *Finder) {
  auto Own = unless(isExpansionInSystemHeader());
  Finder->addMatcher(declRefExpr(to(api::cudaConstant()), Own).bind("naming"),
                     this);
  Finder->addMatcher(stmt(api::cudaConversionCall(), Own).bind("naming"), this);
  Finder->addMatcher(stringLiteral(Own).bind("literal"), this);
  Finder->addMatcher(callExpr(callee(namedDecl(processGroupApi())), Own)
                         .bind("group"),
                     this);
  Finder->addMatcher(cxxConstructExpr(hasDeclaration(cxxConstructorDecl(
                                          ofClass(namedDecl(processGroupApi())))),
                                      Own)
                         .bind("group"),
                     this);
  Finder->addMatcher(
      callExpr(callee(namedDecl(setsCurrentDevice())), Own).bind("setter"),
      this);
  Finder->addMatcher(cxxConstructExpr(hasDeclaration(cxxConstructorDecl(
                                          ofClass(namedDecl(setsCurrentDevice())))),
                                      Own)
                         .bind("setter"),
                     this);
  Finder->addMatcher(
      callExpr(callee(namedDecl(setsEnvironment())), Own).bind("setenv"), this);
}

static bool isLiteral(const Expr *E) {
  return E && isa<IntegerLiteral, CXXBoolLiteralExpr>(E->IgnoreParenImpCasts());
}

/// Whether \p S runs under a condition that reads a rank: `if (rank == 0)`.
static bool isUnderRankCondition(const Stmt &S, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(S);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty() || Parents[0].get<FunctionDecl>())
      return false;
    const Expr *Condition = nullptr;
    if (const auto *If = Parents[0].get<IfStmt>();
        If && Node.get<Stmt>() != If->getCond())
      Condition = If->getCond();
    if (const auto *Choice = Parents[0].get<AbstractConditionalOperator>();
        Choice && Node.get<Stmt>() != Choice->getCond())
      Condition = Choice->getCond();
    if (Condition &&
        !match(findAll(declRefExpr(to(namedDecl(matchesName("[Rr]ank"))))),
               *Condition, Ctx)
             .empty())
      return true;
    Node = Parents[0];
  }
}

std::optional<RankUnawareDeviceCheck::Choice>
RankUnawareDeviceCheck::chosenDevice(const Expr &Naming, ASTContext &Ctx) {
  Choice Result{&Naming};
  if (isa<CXXMemberCallExpr>(Naming))
    return Result; // .cuda(): the current device
  if (const auto *Literal = dyn_cast<StringLiteral>(&Naming))
    if (std::optional<unsigned> Index =
            api::deviceStringIndex(Literal->getString())) {
      Result.Index = Literal;
      Result.IndexValue = *Index;
    }
  bool BecomesDevice = false;
  DynTypedNode Node = DynTypedNode::create(Naming);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    const Stmt *Parent = Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
    const Stmt *Child = Node.get<Stmt>();
    if (!Parent)
      break;
    if (const auto *Ternary = dyn_cast<AbstractConditionalOperator>(Parent)) {
      if (Ternary->getCond() == Child)
        return std::nullopt;
      Result.OneOfTwo = true;
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Parent)) {
      const CXXRecordDecl *Class = Construct->getConstructor()->getParent();
      QualType Built(Class->getTypeForDecl(), 0);
      // "cuda" becomes a std::string before it becomes a device.
      if (Class->isInStdNamespace() && Class->getName() == "basic_string") {
        Node = Parents[0];
        continue;
      }
      if (!api::namesADevice(Built) && !api::isTensorOptionsType(Built))
        break;
      if (api::isDeviceType(Built) && Construct->getNumArgs() >= 1 &&
          Construct->getArg(0) == Child) {
        if (Construct->getNumArgs() == 2) {
          const Expr *Index = Construct->getArg(1);
          if (!isa<CXXDefaultArgExpr>(Index)) {
            if (!isLiteral(Index))
              return std::nullopt; // built from a variable: the rank, maybe
            std::optional<llvm::APSInt> Value =
                Index->getIntegerConstantExpr(Ctx);
            Result.Index = Index;
            Result.IndexValue = Value ? Value->getExtValue() : 0;
          }
        }
        // Written as `torch::Device(...)` or `torch::Device d(...)`.
        DynTypedNodeList Above = Ctx.getParents(*Construct);
        if (isa<CXXTemporaryObjectExpr>(Construct))
          Result.Written = Construct;
        else if (!Above.empty() && Above[0].get<CXXFunctionalCastExpr>())
          Result.Written = Above[0].get<CXXFunctionalCastExpr>();
        else if (!Above.empty() && Above[0].get<VarDecl>() &&
                 Construct->getParenOrBraceRange().isValid())
          Result.Written = Construct;
      }
      BecomesDevice = true;
    } else if (const auto *Call = dyn_cast<CallExpr>(Parent)) {
      if (!api::isDeviceBuilder(Call->getDirectCallee()))
        break;
      if (const Expr *Index = api::explicitDeviceIndex(*Call)) {
        if (!isLiteral(Index))
          return std::nullopt;
        Result.Index = Index;
      }
      BecomesDevice = true;
    } else if (!isa<ImplicitCastExpr, MaterializeTemporaryExpr,
                    CXXBindTemporaryExpr, ExprWithCleanups, ParenExpr,
                    CXXFunctionalCastExpr, ConstantExpr>(Parent)) {
      break;
    }
    Node = Parents[0];
  }
  if (!BecomesDevice)
    return std::nullopt;
  // A device compared with another is not chosen.
  DynTypedNodeList Parents = Ctx.getParents(Node);
  if (!Parents.empty()) {
    if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>();
        Op && (Op->getOperator() == OO_EqualEqual ||
               Op->getOperator() == OO_ExclaimEqual))
      return std::nullopt;
    if (const auto *Op = Parents[0].get<BinaryOperator>();
        Op && Op->isEqualityOp())
      return std::nullopt;
  }
  return Result;
}

/// What a string literal shows about processes: a rank read from the
/// environment or the command line.
static std::optional<std::string> rankEvidence(const StringLiteral &Literal,
                                               ASTContext &Ctx) {
  llvm::StringRef Text = Literal.getString();
  if (api::isRankFlag(Text))
    return "it reads the flag '" +
           Text.take_until([](char C) { return C == '='; }).str() + "'";
  if (!api::isRankEnvironmentVariable(Text))
    return std::nullopt;
  DynTypedNodeList Parents = Ctx.getParents(Literal);
  while (!Parents.empty() && (Parents[0].get<ImplicitCastExpr>() ||
                              Parents[0].get<CXXConstructExpr>() ||
                              Parents[0].get<MaterializeTemporaryExpr>()))
    Parents = Ctx.getParents(Parents[0]);
  // Read from the environment: getenv(name), or a function that reads
  // names from a list of them.
  auto IsGetenv = [](const FunctionDecl *Fn) {
    return Fn && Fn->getDeclName().isIdentifier() &&
           llvm::StringRef(Fn->getName()).contains_insensitive("getenv");
  };
  const auto *Call = Parents.empty() ? nullptr : Parents[0].get<CallExpr>();
  bool Read = Call && IsGetenv(Call->getDirectCallee());
  if (!Read)
    if (const FunctionDecl *Fn = utils::enclosingFunction(Literal, Ctx);
        Fn && Fn->getBody())
      for (const BoundNodes &Found :
           match(findAll(callExpr().bind("call")), *Fn->getBody(), Ctx))
        Read |= IsGetenv(Found.getNodeAs<CallExpr>("call")->getDirectCallee());
  if (!Read)
    return std::nullopt;
  return "it reads " + Text.str() + " from the environment";
}

void RankUnawareDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  Context = &Ctx;
  const auto &Nodes = Result.Nodes;
  auto Evident = [&](const Expr *Where, std::string What) {
    if (!Evidence) {
      Evidence = Where;
      EvidenceText = std::move(What);
    }
  };
  if (const auto *Naming = Nodes.getNodeAs<Expr>("naming")) {
    if (auto Device = chosenDevice(*Naming, Ctx))
      Choices.push_back(*Device);
  } else if (const auto *Literal = Nodes.getNodeAs<StringLiteral>("literal")) {
    if (!Literal->isOrdinary())
      return;
    if (api::isCudaString(Literal->getString())) {
      if (auto Device = chosenDevice(*Literal, Ctx))
        Choices.push_back(*Device);
    } else if (auto Why = rankEvidence(*Literal, Ctx)) {
      Evident(Literal, *Why);
    }
  } else if (const auto *Group = Nodes.getNodeAs<Expr>("group")) {
    const auto *Call = dyn_cast<CallExpr>(Group);
    const FunctionDecl *Fn = Call ? Call->getDirectCallee() : nullptr;
    bool Mpi = Fn && Fn->getDeclName().isIdentifier() &&
               Fn->getName().starts_with("MPI_");
    Evident(Group, Mpi ? "it calls MPI" : "it uses a c10d process group");
  } else if (const auto *Setter = Nodes.getNodeAs<Expr>("setter")) {
    const Expr *Device = nullptr;
    if (const auto *Call = dyn_cast<CallExpr>(Setter))
      Device = Call->getNumArgs() ? Call->getArg(0) : nullptr;
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Setter))
      Device = Construct->getNumArgs() ? Construct->getArg(0) : nullptr;
    SetsCurrentDevice |= Device && !isLiteral(Device);
  } else if (const auto *Call = Nodes.getNodeAs<CallExpr>("setenv")) {
    llvm::SmallVector<const Stmt *, 8> Work = {Call};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (const auto *Literal = dyn_cast_or_null<StringLiteral>(S))
        SetsVisibleDevices |= Literal->isOrdinary() &&
                              Literal->getString().contains("CUDA_VISIBLE_DEVICES");
      else if (S)
        llvm::append_range(Work, S->children());
    }
  }
}

/// The one integer variable named like a local rank that can be named at
/// \p S: a local declared before it, a parameter, a field.
static const ValueDecl *localRankInScope(const Stmt &S, ASTContext &Ctx) {
  llvm::SmallVector<const ValueDecl *, 2> Found;
  auto Consider = [&](const ValueDecl *D) {
    if (D->getType()->isIntegerType() && api::isLocalRankName(D->getName()))
      Found.push_back(D);
  };
  const SourceManager &SM = Ctx.getSourceManager();
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    if (const auto *Block = Parents[0].get<CompoundStmt>()) {
      for (const Stmt *Child : Block->body()) {
        if (!SM.isBeforeInTranslationUnit(Child->getEndLoc(), S.getBeginLoc()))
          break;
        if (const auto *Decls = dyn_cast<DeclStmt>(Child))
          for (const Decl *D : Decls->decls())
            if (const auto *Var = dyn_cast<VarDecl>(D); Var && Var->getIdentifier())
              Consider(Var);
      }
    }
    if (Parents[0].get<LambdaExpr>())
      break;
    if (const auto *Fn = Parents[0].get<FunctionDecl>()) {
      for (const ParmVarDecl *Param : Fn->parameters())
        if (Param->getIdentifier())
          Consider(Param);
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn))
        for (const FieldDecl *Field : Method->getParent()->fields())
          if (Field->getIdentifier())
            Consider(Field);
      break;
    }
    Parents = Ctx.getParents(Parents[0]);
  }
  return Found.size() == 1 ? Found.front() : nullptr;
}

void RankUnawareDeviceCheck::report(const Choice &Device, ASTContext &Ctx) {
  // `torch::Device(...)` as written; a variable's initializer by its naming.
  const Expr &Shown = Device.Written && !isa<CXXConstructExpr>(Device.Written)
                          ? *Device.Written
                          : isa_and_nonnull<CXXTemporaryObjectExpr>(Device.Written)
                                ? *Device.Written
                                : *Device.Naming;
  std::string Text = utils::sourceText(Shown, Ctx).value_or("cuda");
  if (isa<CXXMemberCallExpr>(Device.Naming))
    Text = "cuda()";
  const ValueDecl *Rank = localRankInScope(*Device.Naming, Ctx);
  std::optional<FixItHint> Fix;
  if (Rank && !isa<CXXMemberCallExpr>(Device.Naming) && !Device.OneOfTwo) {
    std::string Name = Rank->getName().str();
    SourceRange Naming = Device.Naming->getSourceRange();
    bool IsString = isa<StringLiteral>(Device.Naming);
    std::string Type = IsString ? "torch::kCUDA"
                                : utils::sourceText(*Device.Naming, Ctx)
                                      .value_or("torch::kCUDA");
    if (Device.Index && !IsString)
      // torch::Device(torch::kCUDA, 0)
      Fix = FixItHint::CreateReplacement(Device.Index->getSourceRange(), Name);
    else if (Device.Written)
      // torch::Device(torch::kCUDA) or torch::Device("cuda:0")
      Fix = FixItHint::CreateReplacement(Naming, Type + ", " + Name);
    else
      // torch::zeros({2}, torch::kCUDA), x.to("cuda")
      Fix = FixItHint::CreateReplacement(
          Naming, "torch::Device(" + Type + ", " + Name + ")");
  }
  bool Unindexed = Device.Index == nullptr;
  {
    auto Diag = diag(Device.Naming->getExprLoc(),
                     "'%0' is %select{the current CUDA device, GPU 0,|GPU "
                     "%2}1 in every process: this program runs one process "
                     "per GPU (%3) but chooses this device without the rank, "
                     "so every process works on the same GPU%select{|; use "
                     "'torch::Device(torch::kCUDA, %5)'}4")
                << Text << !Unindexed << Device.IndexValue << EvidenceText
                << (Rank != nullptr) << (Rank ? Rank->getName() : "")
                << Shown.getSourceRange();
    if (Fix && !Shown.getBeginLoc().isMacroID() &&
        !Shown.getEndLoc().isMacroID())
      Diag << *Fix;
  }
  diag(Evidence->getExprLoc(), "one process per GPU: %0 here",
       DiagnosticIDs::Note)
      << EvidenceText;
  // Which GPU a process gets depends on the launch, not on an operation.
  plans::recordNotReplayable(getID(), Device.Naming->getExprLoc(),
                             Ctx.getSourceManager());
}

void RankUnawareDeviceCheck::onEndOfTranslationUnit() {
  if (Context && Evidence && !SetsVisibleDevices &&
      !Context->getDiagnostics().hasErrorOccurred()) {
    llvm::DenseSet<unsigned> Reported;
    for (const Choice &Device : Choices) {
      if ((!Device.Index && SetsCurrentDevice) ||
          api::isInLibTorch(*Device.Naming, *Context) ||
          Device.Naming->getBeginLoc().isMacroID() ||
          isUnderRankCondition(*Device.Naming, *Context) ||
          !Reported.insert(Device.Naming->getExprLoc().getRawEncoding()).second)
        continue;
      report(Device, *Context);
    }
  }
  Choices.clear();
  Evidence = nullptr;
  EvidenceText.clear();
  SetsCurrentDevice = SetsVisibleDevices = false;
  Context = nullptr;
}

} // namespace clang::tidy::torch_tidy
