//===--- UserCodeScope.cpp - Analyse only what the user owns --------------===//

#include "UserCodeScope.h"
#include "api/TorchApi.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclGroup.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "llvm/Support/Regex.h"

namespace torch_tidy {

using namespace clang;
using tidy::torch_tidy::api::isLibTorchDecl;

namespace {

/// Which files' declarations the checks see: those whose diagnostics
/// clang-tidy's consumer would show (ClangTidyDiagnosticConsumer's filter).
class UserFiles {
public:
  UserFiles(const SourceManager &SM, const tidy::ClangTidyOptions &Options)
      : SM(SM), SystemHeaders(Options.SystemHeaders.value_or(false)),
        HeaderFilter(Options.HeaderFilterRegex.value_or("")),
        ExcludeHeaderFilter(Options.ExcludeHeaderFilterRegex.value_or("")) {}

  /// Whether any header can be in scope (an empty or invalid filter matches
  /// nothing, as in clang-tidy).
  bool includesHeaders() const { return HeaderFilter.isValid(); }

  /// Declared outside system headers.
  bool isUserHeader(const Decl &D) const {
    SourceLocation Loc = D.getLocation();
    return Loc.isValid() && !SM.isInSystemHeader(Loc);
  }

  bool contains(const Decl &D) {
    // PYBIND11_MODULE(m) { ... } and TORCH_LIBRARY: a system macro names the
    // function, the user writes its body.
    if (const auto *Fn = dyn_cast<FunctionDecl>(&D);
        Fn && D.getLocation().isMacroID() && Fn->doesThisDeclarationHaveABody())
      if (const Stmt *Body = Fn->getBody(); Body && Body->getBeginLoc().isFileID())
        return contains(Body->getBeginLoc());
    return contains(D.getLocation());
  }

  bool contains(SourceLocation Loc) {
    if (Loc.isInvalid())
      return false;
    if (!SystemHeaders && (SM.isInSystemHeader(Loc) || SM.isInSystemMacro(Loc)))
      return false;
    FileID File = SM.getDecomposedExpansionLoc(Loc).first;
    if (File == SM.getMainFileID())
      return true;
    auto [It, Inserted] = Shown.try_emplace(File);
    if (Inserted) {
      OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
      // Command-line macros have no file; clang-tidy shows them.
      It->second = !Entry || (HeaderFilter.match(Entry->getName()) &&
                              !ExcludeHeaderFilter.match(Entry->getName()));
    }
    return It->second;
  }

private:
  const SourceManager &SM;
  bool SystemHeaders;
  llvm::Regex HeaderFilter, ExcludeHeaderFilter;
  llvm::DenseMap<FileID, bool> Shown;
};

class UserCodeScope : public MultiplexConsumer {
public:
  UserCodeScope(std::vector<std::unique_ptr<ASTConsumer>> Checks,
                tidy::ClangTidyOptions Options, bool &Parsed)
      : MultiplexConsumer(std::move(Checks)), Options(std::move(Options)),
        Parsed(Parsed) {}

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    // The parser hands over each top-level declaration it parses; those of a
    // precompiled header are not parsed here, so never handed over.
    TopLevel.insert(TopLevel.end(), Group.begin(), Group.end());
    return MultiplexConsumer::HandleTopLevelDecl(Group);
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    UserFiles Files(Ctx.getSourceManager(), Options);
    // A header that --header-filter shows may be in the precompiled header:
    // its declarations are then found among the translation unit's. Listing
    // those deserializes every top-level declaration, so only then.
    std::vector<Decl *> Candidates = std::move(TopLevel);
    if (Files.includesHeaders() && Ctx.getExternalSource())
      Candidates.assign(Ctx.getTranslationUnitDecl()->decls_begin(),
                        Ctx.getTranslationUnitDecl()->decls_end());
    std::vector<Decl *> Scope;
    // LibTorch's own code is never the user's, whatever --header-filter
    // says: its headers are often found through -I, not as system headers,
    // and a finding in a template's body there belongs at the user's call.
    for (Decl *D : Candidates)
      if (Files.contains(*D) && !isLibTorchDecl(D))
        Scope.push_back(D);
    addClassesDefinedHere(Scope, Files);
    Ctx.setTraversalScope(Scope);
    Parsed = true;
    MultiplexConsumer::HandleTranslationUnit(Ctx);
  }

private:
  /// A class declared in a header whose members the file defines is the
  /// file's code too: a diagnostic at its member shows with a note at the
  /// file's definition (a module's member, unregistered by the file's
  /// constructor, used in its forward()).
  static void addClassesDefinedHere(std::vector<Decl *> &Scope,
                                    UserFiles &Files) {
    llvm::DenseSet<const Decl *> Added;
    std::vector<Decl *> Work = Scope;
    while (!Work.empty()) {
      Decl *D = Work.back();
      Work.pop_back();
      if (isa<NamespaceDecl, LinkageSpecDecl>(D)) {
        llvm::append_range(Work, cast<DeclContext>(D)->decls());
        continue;
      }
      auto *Method = dyn_cast<CXXMethodDecl>(D);
      if (!Method || !Method->isThisDeclarationADefinition())
        continue;
      CXXRecordDecl *Class = Method->getParent();
      if (!Files.contains(*Class) && Files.isUserHeader(*Class) &&
          Added.insert(Class).second)
        Scope.push_back(Class);
    }
  }

  tidy::ClangTidyOptions Options;
  bool &Parsed;
  std::vector<Decl *> TopLevel;
};

} // namespace

std::unique_ptr<ASTConsumer>
limitToUserCode(std::unique_ptr<ASTConsumer> Checks,
                const tidy::ClangTidyOptions &Options, bool &Parsed) {
  std::vector<std::unique_ptr<ASTConsumer>> Consumers;
  Consumers.push_back(std::move(Checks));
  return std::make_unique<UserCodeScope>(std::move(Consumers), Options, Parsed);
}

} // namespace torch_tidy
