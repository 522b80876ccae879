//===--- BlockLiveness.cpp - Locals a later statement may read ------------===//

#include "BlockLiveness.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"

namespace clang::tidy::torch_tidy::utils {

namespace {
const Stmt *statementOf(const CFGElement &Element) {
  if (auto Statement = Element.getAs<CFGStmt>())
    return Statement->getStmt();
  if (auto Init = Element.getAs<CFGInitializer>())
    return Init->getInitializer()->getInit();
  return nullptr;
}
} // namespace

llvm::SmallVector<const VarDecl *, 8> localsNamedIn(const Stmt &S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::SmallVector<const VarDecl *, 8> Out;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
          Var && Var->hasLocalStorage())
        Out.push_back(Var);
      return true;
    }
  } Names;
  Names.TraverseStmt(const_cast<Stmt *>(&S));
  return std::move(Names.Out);
}

BlockLiveness::BlockLiveness(const CFG &Graph) {
  unsigned Blocks = Graph.getNumBlockIDs();
  // Each block's reads (true) and declarations (false), last first.
  std::vector<llvm::SmallVector<std::pair<const VarDecl *, bool>, 16>> Events(
      Blocks);
  for (const CFGBlock *Block : Graph) {
    auto &Out = Events[Block->getBlockID()];
    auto Note = [&](const Stmt *S) {
      if (S)
        for (const VarDecl *Var : localsNamedIn(*S))
          Out.emplace_back(Var, true);
    };
    Note(Block->getTerminatorCondition());
    for (auto It = Block->rbegin(); It != Block->rend(); ++It) {
      const Stmt *S = statementOf(*It);
      if (const auto *Decl = dyn_cast_or_null<DeclStmt>(S))
        for (const clang::Decl *D : Decl->decls())
          if (const auto *Var = dyn_cast<VarDecl>(D))
            Out.emplace_back(Var, false);
      Note(S);
    }
    for (const auto &[Var, Read] : Out)
      Index.try_emplace(Var, Index.size());
  }

  LiveOut.assign(Blocks, llvm::BitVector(Index.size()));
  std::vector<llvm::BitVector> LiveIn(Blocks, llvm::BitVector(Index.size()));
  auto Transfer = [&](const CFGBlock &Block) {
    llvm::BitVector Live = LiveOut[Block.getBlockID()];
    for (const auto &[Var, Read] : Events[Block.getBlockID()]) {
      if (Read)
        Live.set(Index.lookup(Var));
      else
        Live.reset(Index.lookup(Var));
    }
    return Live;
  };
  // Successors before predecessors, until nothing changes.
  PostOrderCFGView ReversePostOrder(&Graph);
  llvm::SmallVector<const CFGBlock *, 0> Order(ReversePostOrder.begin(),
                                               ReversePostOrder.end());
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const CFGBlock *Block : llvm::reverse(Order)) {
      llvm::BitVector &Out = LiveOut[Block->getBlockID()];
      for (const CFGBlock *Succ : Block->succs())
        if (Succ)
          Out |= LiveIn[Succ->getBlockID()];
      llvm::BitVector In = Transfer(*Block);
      if (In != LiveIn[Block->getBlockID()]) {
        LiveIn[Block->getBlockID()] = std::move(In);
        Changed = true;
      }
    }
  }
}

bool BlockLiveness::isLiveAtExit(const CFGBlock &Block,
                                 const VarDecl *Var) const {
  auto It = Index.find(Var);
  return It != Index.end() && LiveOut[Block.getBlockID()].test(It->second);
}

} // namespace clang::tidy::torch_tidy::utils
