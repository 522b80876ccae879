//===--- CrossFileSolver.cpp - Device facts solved over every file --------===//

#include "CrossFileSolver.h"
#include <deque>
#include <map>

namespace torch_tidy {

namespace {

/// A fact established for the files other than Unit, and the supplies that
/// establish it, from the outermost (an unconditional one) to the last link.
struct Derivation {
  Need Fact;
  const std::string *Unit;
  std::vector<const Supply *> Chain;
};

class Solver {
public:
  Solver(std::vector<const CrossFileFacts *> Files, unsigned MaxLinks)
      : MaxLinks(MaxLinks) {
    for (const CrossFileFacts *File : Files)
      for (const Supply &S : File->Supplies) {
        if (S.Fact.What == Need::RegistersSubmodule)
          Registrations.push_back(&S.Fact);
        else if (S.Condition)
          Conditional.insert({*S.Condition, {&S, &File->Unit}});
      }
    // Unconditional supplies first, in file order: the first derivation of
    // a fact for a file is the one its notes name.
    for (const CrossFileFacts *File : Files)
      for (const Supply &S : File->Supplies)
        if (S.Fact.What != Need::RegistersSubmodule && !S.Condition)
          establish({S.Fact, &File->Unit, {&S}});
  }

  void run() {
    while (!Work.empty()) {
      Derivation D = std::move(Work.front());
      Work.pop_front();
      // Module::to moves the submodules a module registers: the move is the
      // same fact, from the same file.
      if (D.Fact.What == Need::ModuleMoved)
        for (const Need *Registers : Registrations)
          if (Registers->Entity == D.Fact.Entity)
            establish({{Need::ModuleMoved, Registers->Submodule}, D.Unit, D.Chain});
      // A supply that holds if D does, in a file D holds for.
      for (auto [It, End] = Conditional.equal_range(D.Fact); It != End; ++It) {
        const auto &[S, Unit] = It->second;
        if (*Unit == *D.Unit)
          continue;
        if (D.Chain.size() >= MaxLinks) {
          ++BoundHits;
          continue;
        }
        Derivation Next{S->Fact, Unit, D.Chain};
        Next.Chain.push_back(S);
        establish(std::move(Next));
      }
    }
  }

  /// The first derivation of \p Fact for a file other than \p Unit.
  const Derivation *forOtherThan(const Need &Fact, const std::string &Unit) const {
    for (auto [It, End] = Established.equal_range(Fact); It != End; ++It)
      if (*It->second.Unit != Unit)
        return &It->second;
    return nullptr;
  }

  size_t established() const { return Established.size(); }
  size_t boundHits() const { return BoundHits; }

private:
  /// Records \p D unless its fact is established for its file already: the
  /// set of (fact, file) pairs only grows and is finite, so cycles end.
  void establish(Derivation D) {
    for (auto [It, End] = Established.equal_range(D.Fact); It != End; ++It)
      if (*It->second.Unit == *D.Unit)
        return;
    Established.insert({D.Fact, D});
    Work.push_back(std::move(D));
  }

  unsigned MaxLinks;
  std::vector<const Need *> Registrations;
  std::multimap<Need, std::pair<const Supply *, const std::string *>> Conditional;
  std::multimap<Need, Derivation> Established;
  std::deque<Derivation> Work;
  size_t BoundHits = 0;
};

} // namespace

CrossFileResolution solveCrossFile(const std::vector<CrossFileFacts> &Files,
                                   unsigned MaxLinks) {
  std::vector<const CrossFileFacts *> Sorted;
  for (const CrossFileFacts &File : Files)
    Sorted.push_back(&File);
  llvm::sort(Sorted, [](const CrossFileFacts *A, const CrossFileFacts *B) {
    return A->Unit < B->Unit;
  });
  Solver Facts(Sorted, MaxLinks);
  Facts.run();
  CrossFileResolution Out;
  for (const CrossFileFacts *File : Sorted)
    for (const ConditionalFinding &C : File->Conditional)
      if (const Derivation *D = Facts.forOtherThan(C.Condition, File->Unit)) {
        Finding F = C.F;
        // A fact with nothing to say (the program names an accelerator)
        // adds no note.
        for (const Supply *Link : D->Chain)
          if (!Link->Note.empty()) {
            F.Notes.push_back({Link->Where, Link->Note, {}});
            ++F.ChainLinks;
          }
        Out.Findings.push_back(std::move(F));
      }
  Out.Established = Facts.established();
  Out.BoundHits = Facts.boundHits();
  return Out;
}

} // namespace torch_tidy
